# Lesson 11's lab (lessons/11-tma-pipeline/lab/, lab.hpp): the variants the chapter measures against
# the headline. Built with the reference solution's pipeline_exercises.cuh, never with the
# learner's, so a save does not rebuild them; linked into the lesson's two programs (for --sweep)
# and into a grader of their own, test11_lab, which `make test` runs: its policies' plans and
# orders on the CPU, its variants on a GPU.
set(course_l11 ${CMAKE_SOURCE_DIR}/lessons/11-tma-pipeline)
file(GLOB course_l11_lab CONFIGURE_DEPENDS ${course_l11}/lab/*.cu)
add_library(lesson11_lab OBJECT ${course_l11_lab})
target_include_directories(lesson11_lab PRIVATE ${CMAKE_SOURCE_DIR}/solutions/11-tma-pipeline
                                                ${course_l11}/gemm ${course_l11})
target_compile_definitions(lesson11_lab PRIVATE COURSE_LESSON_ID="11" COURSE_LESSON_MIN_CC=90
                                                COURSE_LIBRARY=reference)
target_link_libraries(lesson11_lab PRIVATE course_common)
set_target_properties(lesson11_lab PROPERTIES CUDA_ARCHITECTURES 90a)
target_sources(lesson11 PRIVATE $<TARGET_OBJECTS:lesson11_lab>)
target_sources(lesson11_solution PRIVATE $<TARGET_OBJECTS:lesson11_lab>)
target_sources(test_choices PRIVATE $<TARGET_OBJECTS:lesson11_lab>)

file(GLOB course_l11_lab_tests CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/11-tma-pipeline/lab/*.cpp)
add_executable(test11_lab ${course_l11_lab_tests} $<TARGET_OBJECTS:lesson11_lab>)
target_include_directories(test11_lab PRIVATE ${course_l11})
target_compile_definitions(test11_lab PRIVATE COURSE_LESSON_ID="11" COURSE_LESSON_MIN_CC=90
                                              COURSE_LIBRARY=reference)
target_link_libraries(test11_lab PRIVATE solution11 course_test_main)
course_register_tests(solution.11.lab test11_lab 90 "solution" "cpu;gpu")
