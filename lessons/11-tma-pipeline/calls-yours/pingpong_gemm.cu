// Lesson 11: the ping-pong kernel (pingpong_launchers.cuh), compiled into both the exercise and
// the solution library, each time with that library's pipeline_exercises.cuh.
#include "pingpong_launchers.cuh"
