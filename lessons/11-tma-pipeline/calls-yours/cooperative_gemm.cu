// Lesson 11: the cooperative kernel's variants (cooperative_launchers.cuh), compiled into both the
// exercise and the solution library, each time with that library's pipeline_exercises.cuh. A
// translation unit of its own, so that the kernels compile in parallel.
#include "cooperative_launchers.cuh"
