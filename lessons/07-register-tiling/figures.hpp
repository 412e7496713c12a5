/// \file figures.hpp
/// \brief Lesson 07's figures: a thread's outer product at one step k and the block's thread
/// tiles, drawn from your thread_tile_2d_multiply and thread_tile_2d_write; and the float4 groups
/// a thread of step 3 reads from the shared tiles and writes to C, from your
/// vectorized_2d_multiply and vectorized_2d_write. Both through the probes of thread_tiles.hpp.
#pragma once

#include "lessons/07-register-tiling/thread_tiles.hpp"

#include "common/svg.hpp"

namespace lesson07 {

/// Step 2 on a 16 x 16 block tile (thread_tile_2d_probe): the A tile left of C, the B tile above
/// it, C coloured by the thread whose write lands in each cell; `thread`'s places of column k of
/// As and row k of Bs, and its tile, in its colour; on the right its outer product at step k,
/// acc[i][j] += As[m][k] * Bs[k][n], one cell per product. Tagged for tests: cell (r, c) of C is
/// class "own t r c" for the thread t that writes it ("hole" where none does, "clash" where
/// several do); every product drawn is class "term i j m ka kb n" (all of them also "product").
course::svg::Scene outer_product_scene(int thread, int k);

/// Step 3 on a 16 x 64 block tile (vectorized_2d_probe) at step k = 0: As (the A tile
/// transposed) and Bs with the float4 groups that threads `first` .. `first + count - 1` read,
/// and C with every thread's float4 stores. Tagged for tests: a group of four consecutive floats
/// that thread t reads from row k of As starting at column m is class "read-a t m" (of Bs: "read-b
/// t n"); a float4 it writes into C starting at (r, c) is "store t r c". Results that do not sit
/// in four consecutive, 16-byte aligned floats are drawn one by one, class "scattered".
course::svg::Scene float4_scene(int first, int count);

}  // namespace lesson07
