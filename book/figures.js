// The chapters' figures on the page: controls that choose a frame, and any figure enlarged on a
// click. Every frame was drawn by the lessons' own functions (window.COURSE_FIGURES, written with
// the book); this script only selects and shows them, so it works from the disk, offline.
(function () {
  "use strict";

  function key(values) {
    return values.join("|");
  }

  // One control: a row of buttons, or a slider with the value shown beside it.
  function makeControl(spec, control, values, index, show) {
    var row = document.createElement("div");
    row.className = "course-figure-control";
    var label = document.createElement("span");
    label.className = "course-figure-label";
    label.textContent = control.label + ":";
    row.appendChild(label);
    if (control.slider) {
      var input = document.createElement("input");
      input.type = "range";
      input.min = "0";
      input.max = String(control.values.length - 1);
      input.step = "1";
      input.value = String(Math.max(0, control.values.indexOf(values[index])));
      input.setAttribute("aria-label", control.label);
      input.dataset.control = control.name;
      var out = document.createElement("output");
      var prev = document.createElement("button");
      var next = document.createElement("button");
      prev.type = next.type = "button";
      prev.textContent = "\u25C0";
      next.textContent = "\u25B6";
      prev.setAttribute("aria-label", control.label + ": back");
      next.setAttribute("aria-label", control.label + ": forward");
      var update = function () {
        var i = Number(input.value);
        values[index] = control.values[i];
        out.textContent = control.shown[i];
        show();
      };
      input.addEventListener("input", update);
      prev.addEventListener("click", function () {
        input.value = String(Math.max(0, Number(input.value) - 1));
        update();
      });
      next.addEventListener("click", function () {
        input.value = String(Math.min(control.values.length - 1, Number(input.value) + 1));
        update();
      });
      out.textContent = control.shown[Number(input.value)];
      row.appendChild(prev);
      row.appendChild(input);
      row.appendChild(next);
      row.appendChild(out);
    } else {
      var group = document.createElement("span");
      group.setAttribute("role", "radiogroup");
      group.setAttribute("aria-label", control.label);
      control.values.forEach(function (v, i) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = control.shown[i];
        b.dataset.control = control.name;
        b.dataset.value = v;
        b.setAttribute("role", "radio");
        var mark = function () {
          Array.prototype.forEach.call(group.children, function (c) {
            c.setAttribute("aria-checked", c.dataset.value === values[index] ? "true" : "false");
          });
        };
        b.addEventListener("click", function () {
          values[index] = v;
          mark();
          show();
        });
        group.appendChild(b);
        if (i === control.values.length - 1) mark();
      });
      row.appendChild(group);
    }
    return row;
  }

  function setUp(figure, spec) {
    var img = figure.querySelector("img.course-figure-img");
    var box = figure.querySelector(".course-figure-controls");
    if (!img || !box || !spec.controls.length) return;
    var values = spec.controls.map(function (c) {
      return c.initial;
    });
    var show = function () {
      var file = spec.frames[key(values)];
      if (file) {
        img.src = file;
        figure.dataset.frame = key(values);
      }
    };
    spec.controls.forEach(function (c, i) {
      box.appendChild(makeControl(spec, c, values, i, show));
    });
    figure.dataset.frame = key(values);
  }

  // A click on any figure or chart of a chapter shows it at full size over the page.
  function enlarge(img) {
    var cover = document.createElement("div");
    cover.className = "course-figure-cover";
    cover.setAttribute("role", "dialog");
    cover.setAttribute("aria-label", (img.alt || "figure") + " (click or Escape to close)");
    var big = document.createElement("img");
    big.src = img.src;
    big.alt = img.alt;
    cover.appendChild(big);
    var close = function () {
      cover.remove();
      document.removeEventListener("keydown", onKey);
    };
    var onKey = function (e) {
      if (e.key === "Escape") close();
    };
    cover.addEventListener("click", close);
    document.addEventListener("keydown", onKey);
    document.body.appendChild(cover);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var all = window.COURSE_FIGURES || {};
    document.querySelectorAll("figure.course-figure[data-figure]").forEach(function (f) {
      var spec = all[f.dataset.figure];
      if (spec) setUp(f, spec);
    });
    document.querySelectorAll("div.contents img").forEach(function (img) {
      if (img.closest("a")) return;
      img.classList.add("course-enlargeable");
      img.setAttribute("title", "click to enlarge");
      img.addEventListener("click", function () {
        enlarge(img);
      });
    });
  });
})();
