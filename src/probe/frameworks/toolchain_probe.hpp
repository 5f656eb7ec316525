// The dynamic loader's answers for one framework build's GPU libraries (see toolchain_probe.cpp).
#pragma once

#include <facts/framework_facts.hpp>
#include <probe/loader/resolver.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe::frameworks {

// Fills b.unresolved_libraries, b.cuda_runtimes and b.loader_notes for a build with GPU libraries.
void probe_build_libraries(const sys::FileSystem& fs, const loader::LoaderContext& ctx, facts::FrameworkBuild& b);

}  // namespace gpudoctor::probe::frameworks
