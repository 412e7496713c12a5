/* Appended by Doxygen (MATHJAX_CODEFILE) after its own MathJax 2 configuration. Doxygen 1.9.4
   always asks MathJax 2 for the HTML-CSS output; the book ships only the CommonHTML output and its
   web fonts (book/build.py copies them from the system's MathJax), so switch to it here.
   Long formulas break at their relations to fit the page, in a narrow table cell too: a short
   label there is plain text with non-breaking spaces (lesson 03's "β&nbsp;=&nbsp;0"). */
MathJax.Hub.Config({
  jax: ["input/TeX", "output/CommonHTML"],
  menuSettings: { renderer: "CommonHTML" },
  MathMenu: { showRenderer: false, showFontMenu: false },
  CommonHTML: { linebreaks: { automatic: true } }
});
