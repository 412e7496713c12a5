// Lesson 11: compiles the cooperative kernel's variants (lessons/11-tma-pipeline/
// cooperative_launchers.cuh) with the pipeline_exercises.cuh of this folder. Nothing to do here.
#include "cooperative_launchers.cuh"
