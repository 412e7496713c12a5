// Lesson 11: compiles the given kernels and launchers (lessons/11-tma-pipeline/
// pipeline_launchers.cuh) with the pipeline_exercises.cuh of this folder. Nothing to do here.
#include "pipeline_launchers.cuh"
