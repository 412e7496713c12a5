# Lesson 11's planted mistakes: copies of the reference solution with one mistake each, compiled
# into graders of their own (planted11_NAME), built only when asked for. planted.py, the test
# "planted.11", builds and runs them on a GPU: a wrong solution must end in seconds, with the
# right first line of diagnosis. Each plant replaces one exact piece of the solution; a solution
# that no longer holds that piece stops the configuration, so the plants cannot silently vanish.
set(course_l11 ${CMAKE_SOURCE_DIR}/lessons/11-tma-pipeline)
set(course_l11_solution ${CMAKE_SOURCE_DIR}/solutions/11-tma-pipeline/pipeline_exercises.cuh)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${course_l11_solution})
file(READ ${course_l11_solution} course_l11_text)
# Everything the lesson's libraries link, but the solution the plant replaces.
set(course_l11_deps ${course_earlier_solutions})
list(REMOVE_ITEM course_l11_deps solution11)

function(course_plant11 name old new)
  string(FIND "${course_l11_text}" "${old}" at)
  if(at LESS 0)
    message(FATAL_ERROR "planted mistake '${name}': the solution no longer contains '${old}'")
  endif()
  string(REPLACE "${old}" "${new}" planted "${course_l11_text}")
  set(dir ${CMAKE_BINARY_DIR}/planted11/${name})
  file(WRITE ${dir}/pipeline_exercises.cuh.new "${planted}")
  # Rewritten only when it changes: an unchanged plant does not recompile.
  configure_file(${dir}/pipeline_exercises.cuh.new ${dir}/pipeline_exercises.cuh COPYONLY)
  add_library(planted11_${name}_lib STATIC EXCLUDE_FROM_ALL ${course_calls_yours_11}
                                           $<TARGET_OBJECTS:lesson11_given>)
  target_compile_definitions(planted11_${name}_lib PRIVATE COURSE_LESSON_ID="11"
                                                           COURSE_LESSON_MIN_CC=90)
  target_include_directories(planted11_${name}_lib PRIVATE ${dir} ${course_l11})
  target_link_libraries(planted11_${name}_lib PUBLIC course_common ${course_l11_deps})
  set_target_properties(planted11_${name}_lib PROPERTIES CUDA_ARCHITECTURES 90a)
  add_executable(planted11_${name} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:lesson11_tests>)
  target_link_libraries(planted11_${name} PRIVATE planted11_${name}_lib course_test_main)
endfunction()

# The wrong swizzle mode in the descriptor (64-byte instead of 128-byte).
course_plant11(descriptor "const std::uint64_t swizzle_128b = 1;"
               "const std::uint64_t swizzle_128b = 2;")
# The consumers wait for the wrong parity of the full barrier (the CPU model catches it).
course_plant11(parity
               "return RingSlot{it % stages, static_cast<std::uint32_t>((it / stages) & 1)};"
               "return RingSlot{it % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};")
# The producer waits for the wrong parity of the empty barrier on the GPU only, where no model on
# the CPU sees it: the bounded wait must end it.
course_plant11(device_parity
               "return RingSlot{it % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};"
               "#ifdef __CUDA_ARCH__\n  return RingSlot{it % stages, static_cast<std::uint32_t>((it / stages) & 1)};\n#else\n  return RingSlot{it % stages, static_cast<std::uint32_t>(((it / stages) & 1) ^ 1)};\n#endif")

add_test(NAME planted.11 COMMAND ${Python3_EXECUTABLE}
                                 ${CMAKE_CURRENT_LIST_DIR}/planted.py --build ${CMAKE_BINARY_DIR})
set_tests_properties(planted.11 PROPERTIES LABELS "planted;gpu" TIMEOUT 1800
                     SKIP_RETURN_CODE ${COURSE_SKIP_CODE})
