# Planted mistakes: copies of a lesson's reference solution with one mistake each, compiled into
# graders of their own (plantedNN_NAME), built only when asked for. planted.py, the test "planted",
# builds and runs them on a GPU and grades them as `make grade-N` grades a learner's code: each must
# be rejected, within seconds, with a first line that names the mistake. Each plant replaces one
# exact piece of the solution; a solution that no longer holds that piece stops the configuration,
# so the plants cannot silently vanish.

# course_plant(LESSON NAME OLD NEW [OLD NEW ...]): lesson LESSON's solution with OLD replaced by NEW
# in the one file of solutions/NN-slug/ that holds OLD (further pairs: in the same file, for a
# mistake written in two places). The plant's library is built as solutionNN is (CMakeLists.txt,
# course_add_lesson), from a copy of the whole solution folder: a solution file that includes
# another by its bare name takes the copy beside it.
function(course_plant lesson name old new)
  set(dir ${lesson}-${course_lesson_${lesson}_slug})
  set(min_cc ${course_lesson_${lesson}_min_cc})
  string(REPLACE "." "" cc_digits ${min_cc})
  file(GLOB files ${CMAKE_SOURCE_DIR}/solutions/${dir}/*)
  set(holder "")
  foreach(f IN LISTS files)
    file(READ ${f} text)
    string(FIND "${text}" "${old}" at)
    if(at GREATER_EQUAL 0)
      list(APPEND holder ${f})
    endif()
  endforeach()
  list(LENGTH holder found)
  if(NOT found EQUAL 1)
    message(FATAL_ERROR "planted mistake ${lesson}/${name}: ${found} files of solutions/${dir} "
                        "contain '${old}' (one must)")
  endif()
  set(out ${CMAKE_BINARY_DIR}/planted/${lesson}_${name})
  set(srcs "")
  foreach(f IN LISTS files)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${f})
    get_filename_component(base ${f} NAME)
    if(f STREQUAL holder)
      file(READ ${f} text)
      # ARGVn, not a list: the pieces of code hold semicolons.
      math(EXPR last "${ARGC} - 1")
      foreach(i RANGE 2 ${last} 2)
        math(EXPR j "${i} + 1")
        set(from "${ARGV${i}}")
        set(to "${ARGV${j}}")
        string(FIND "${text}" "${from}" at)
        if(at LESS 0)
          message(FATAL_ERROR "planted mistake ${lesson}/${name}: ${base} no longer contains "
                              "'${from}'")
        endif()
        string(REPLACE "${from}" "${to}" text "${text}")
      endforeach()
      file(WRITE ${out}/${base}.new "${text}")
      # Rewritten only when it changes: an unchanged plant does not recompile.
      configure_file(${out}/${base}.new ${out}/${base} COPYONLY)
    else()
      configure_file(${f} ${out}/${base} COPYONLY)
    endif()
    if(base MATCHES "\\.(cu|cpp)$")
      list(APPEND srcs ${out}/${base})
    endif()
  endforeach()
  list(APPEND srcs ${course_calls_yours_${lesson}})
  if(course_lesson_${lesson}_configs)
    course_config_sources(${lesson} ${dir} planted_${name} OFF config_srcs)
    list(APPEND srcs ${config_srcs})
  endif()
  if(TARGET lesson${lesson}_given)
    list(APPEND srcs $<TARGET_OBJECTS:lesson${lesson}_given>)
  endif()
  # The reference solutions of the lessons before this one, as solutionNN links them (a later
  # lesson's would bring solutionNN itself, whose symbols the plant replaces).
  set(earlier "")
  foreach(n IN LISTS course_lessons)
    if(n STREQUAL lesson)
      break()
    endif()
    list(APPEND earlier solution${n})
  endforeach()
  set(lib planted${lesson}_${name}_lib)
  add_library(${lib} STATIC EXCLUDE_FROM_ALL ${srcs})
  target_compile_definitions(${lib} PRIVATE COURSE_LESSON_ID="${lesson}"
                                            COURSE_LESSON_MIN_CC=${cc_digits}
                                            COURSE_LIBRARY=reference)
  target_include_directories(${lib} PRIVATE ${out} ${CMAKE_BINARY_DIR}/generated/${lesson}/planted_${name}
                                             ${CMAKE_SOURCE_DIR}/lessons/${dir})
  target_link_libraries(${lib} PUBLIC course_common ${earlier})
  # A mistake may leave a variable or a parameter unused: its warning must not stop a build with
  # COURSE_WERROR.
  target_compile_options(${lib} PRIVATE $<$<COMPILE_LANGUAGE:CXX,CUDA>:-w>)
  if(min_cc VERSION_GREATER_EQUAL 9.0)
    set_target_properties(${lib} PROPERTIES CUDA_ARCHITECTURES "${course_tma_archs}")
  endif()
  # Its grader, compiled against the plant's folder as the lesson's are against theirs.
  course_grader_objects(${lesson} planted${lesson}_${name}_tests ${out} reference objects)
  if(TARGET planted${lesson}_${name}_tests)
    set_target_properties(planted${lesson}_${name}_tests PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
  add_executable(planted${lesson}_${name} EXCLUDE_FROM_ALL ${objects})
  target_link_libraries(planted${lesson}_${name} PRIVATE ${lib} course_test_main)
endfunction()

# The mistakes, one a plant; planted.py's table says what each is and what its diagnosis must name.

# ---- 03 naive ----
course_plant(03 int_acc "float acc = 0.0f;" "int acc = 0;")

# ---- 04 coalescing ----
course_plant(04 grid_floor
             "grid((N + kBlockX - 1) / kBlockX, (M + kBlockY - 1) / kBlockY);\n  coalesced_sgemm_kernel"
             "grid(N / kBlockX, M / kBlockY);\n  coalesced_sgemm_kernel")

# ---- 05 tiling ----
course_plant(05 no_sync_after_loads
             "none may be read before it has been written.\n    __syncthreads();"
             "none may be read before it has been written.")
course_plant(05 no_sync_before_overwrite
             "a slow one still reads these.\n    __syncthreads();" "a slow one still reads these.")
course_plant(05 early_return
             "const int col = blockIdx.x * TILE + tx;  // the column of C (and of B)"
             "const int col = blockIdx.x * TILE + tx;  // the column of C (and of B)\n  if (row >= M || col >= N) return;  // nothing to compute outside C")
course_plant(05 guard_off_by_one "if (r >= rows || c >= cols) return 0.0f;"
             "if (r > rows || c > cols) return 0.0f;")

# ---- 07 register tiling ----
course_plant(07 int_b "const float b = Bs[k][tx];" "const int b = Bs[k][tx];")
course_plant(07 vector_fetch_order
             "const int r = r0 + e / kPerRow, c = c0 + 4 * (e % kPerRow);\n    regs[i] ="
             "const int r = r0 + e % ROWS, c = c0 + 4 * (e / ROWS);\n    regs[i] =")
course_plant(07 beta_scalar_only
             "          if (beta != 0.0f) {  // C is read only when beta != 0
            const float4 old = *c;
            out.x += beta * old.x;
            out.y += beta * old.y;
            out.z += beta * old.z;
            out.w += beta * old.w;
          }
" "")
course_plant(07 vector_k_unchecked "l.vec = K % 4 == 0 && N % 4 == 0 && aligned(A)"
             "l.vec = N % 4 == 0 && aligned(A)")

# ---- 08 warp shuffle ----
course_plant(08 shuffle_width
             "v, quad_a_source(q), 4);\n    const float b = __shfl_sync(kFullMask, v, quad_b_source(q), 4);"
             "v, quad_a_source(q));\n    const float b = __shfl_sync(kFullMask, v, quad_b_source(q));")
course_plant(08 butterfly_short "offset >= 1; offset /= 2" "offset > 1; offset /= 2")
course_plant(08 other_buffer "&As[cur][k]" "&As[cur ^ 1][k]" "&Bs[cur][k]" "&Bs[cur ^ 1][k]")

# ---- 09 swizzling ----
course_plant(09 swizzle_bytes "static_cast<int>(Swizzle128B{}(byte) >> 2)"
             "static_cast<int>(Swizzle128B{}(byte))")

# ---- 10 tensor cores ----
course_plant(10 ldmatrix_b_order
             "b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];"
             "b[j][0] = r[0], b[j][1] = r[2], b[j + 1][0] = r[1], b[j + 1][1] = r[3];")
course_plant(10 serpentine_acc "mma_m16n8k16_bf16(acc[i][jj], a[i], b[jj]);"
             "mma_m16n8k16_bf16(acc[i][j], a[i], b[jj]);")

# ---- 11 TMA pipeline ----
course_plant(11 descriptor "const std::uint64_t swizzle_128b = 1;"
             "const std::uint64_t swizzle_128b = 2;")
course_plant(11 parity
             "return RingSlot{it % stages, static_cast<std::uint32_t>((it / stages) & 1)};"
             "return RingSlot{it % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};")
# Wrong on the GPU only, where no model on the CPU sees it: the bounded wait must end it.
course_plant(11 device_parity
             "return RingSlot{it % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};"
             "#ifdef __CUDA_ARCH__\n  return RingSlot{it % stages, static_cast<std::uint32_t>((it / stages) & 1)};\n#else\n  return RingSlot{it % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};\n#endif")
course_plant(11 producer_stage_behind
             "return RingSlot{it % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};"
             "return RingSlot{(it - stages) % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};")
course_plant(11 tx_elements "(block_m + block_n) * block_k * 2);  // 2 bytes per bf16"
             "(block_m + block_n) * block_k);  // the two tiles")
course_plant(11 arrivals_per_thread "return static_cast<std::uint32_t>(consumer_warps);"
             "return static_cast<std::uint32_t>(consumer_warps * 32);")

add_test(NAME planted COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/planted.py
                              --build ${CMAKE_BINARY_DIR})
set_tests_properties(planted PROPERTIES LABELS "planted;gpu" TIMEOUT 3600
                     SKIP_RETURN_CODE ${COURSE_SKIP_CODE})
