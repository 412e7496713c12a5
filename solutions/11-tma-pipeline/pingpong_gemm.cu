// Lesson 11: compiles the ping-pong kernel (lessons/11-tma-pipeline/pingpong_launchers.cuh) with
// the pipeline_exercises.cuh of this folder. Nothing to do here.
#include "pingpong_launchers.cuh"
