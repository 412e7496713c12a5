/// \file figures.hpp
/// \brief Lesson 10's figures: the fragments of mma.sync (fragment_svg.hpp), and ldmatrix.x4
/// carrying 8 x 8 pieces of a tile in shared memory into the lanes' registers, from the kernel's
/// ldmatrix addresses and your fragment mappings.
#pragma once

#include "lessons/10-tensor-cores/fragment_svg.hpp"
#include "lessons/10-tensor-cores/mma_fragment.hpp"

#include "common/svg.hpp"

namespace lesson10 {

/// One ldmatrix.x4 of the kernel, for warp 0's first A fragment (`b_operand` false) or its first
/// pair of B's n8 tiles (true), with register `reg` (0 .. 3) picked out. Left: the 16 x 16 tile in
/// shared memory (A: a row per row of A; B: a row per n), k along the rows in two 16-byte halves;
/// beside each half-row, the lane that gives its address (a_ldmatrix_row /
/// b_ldmatrix_row). Every element is labelled with the lane and the fragment element that
/// ldmatrix delivers it to (register q of lane L: row L / 4 of matrix q, values 2 (L % 4) and one
/// more); where your fragment mapping says otherwise, the cell is outlined. Right: register `reg`
/// of the 32 lanes. Tagged for tests: an element at (row, k) of the tile that ldmatrix delivers to
/// half h of register q of lane L is class "got row k L q h"; an element none delivers is "hole",
/// one several deliver "clash", one your mapping places elsewhere "mismatch"; the address lane L
/// gives is "addr L row k".
course::svg::Scene ldmatrix_scene(bool b_operand, int reg);

}  // namespace lesson10
