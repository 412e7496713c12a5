// Lesson 11: what the build's file of a configuration includes: your pipeline_exercises.cuh (the
// bodies of your functions) and the ladder's configurations. LESSON11_CONFIG(Kind, Name, ...)
// compiles one line's: its kernel and its launch.
#pragma once

#include "pipeline_exercises.cuh"  // yours

#include "ladder.cuh"

#define LESSON11_CONFIG(Kind, Name, ...) LESSON11_LAUNCH_##Kind(Name);
