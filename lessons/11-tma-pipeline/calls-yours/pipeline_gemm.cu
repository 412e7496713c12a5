// Lesson 11: the rungs' kernels and launchers (pipeline_launchers.cuh), compiled by the build into
// both the exercise and the solution library, each time with that library's pipeline_exercises.cuh:
// the kernels call your descriptor and your ring's protocol.
#include "pipeline_launchers.cuh"
