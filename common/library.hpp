/// \file library.hpp
/// \brief The name of a library's build of the learner's inline functions.
///
/// Your inline functions (the parts headers that the given kernels include) are compiled twice:
/// once with your exercise, once with the reference solution. Each header opens
/// `inline namespace COURSE_LIBRARY`, which the build names `yours` in the exercise's library and
/// `reference` in the solution's (CMakeLists.txt: course_library_name). The two copies then have
/// names of their own, so a program that links both, as lesson 11's does with its lab, never calls
/// one in place of the other. Code calls them as usual (`lesson11::producer_slot`): an inline
/// namespace is looked into from the one around it.
#pragma once

#ifndef COURSE_LIBRARY
#error \
    "COURSE_LIBRARY is not defined: the course's build names each library's copy of your inline functions (yours or reference); build through CMake (make)"
#endif
