/// \file timing_hold.hpp
/// \brief A kernel that keeps the GPU busy for a while (for the timing routine, common/timing.hpp).
#pragma once

namespace course {

/// Launches, on the default stream, one thread that spins for `us` microseconds of the GPU's own
/// clock (%globaltimer), and checks the launch.
void hold_gpu_us(double us);

}  // namespace course
