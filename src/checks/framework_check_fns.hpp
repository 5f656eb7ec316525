// The framework-layer check functions, defined in torch_checks.cpp and
// other_framework_checks.cpp and listed in framework_checks.cpp's table.
#pragma once

#include <checks/check.hpp>

namespace gpudoctor::checks::framework {

void torch_cpu_only_build(const Facts& f, FindingSink& out);
void torch_cuda_too_new_for_driver(const Facts& f, FindingSink& out);
void torch_arch_unsupported(const Facts& f, FindingSink& out);
void torch_rocm_build_on_nvidia(const Facts& f, FindingSink& out);
void torch_cuda_build_on_amd(const Facts& f, FindingSink& out);
void torch_shadowed(const Facts& f, FindingSink& out);
void torch_multiple_installs(const Facts& f, FindingSink& out);
void tf_cpu_only_build(const Facts& f, FindingSink& out);
void tf_windows_native_no_gpu(const Facts& f, FindingSink& out);
void tf_missing_gpu_libs(const Facts& f, FindingSink& out);
void jax_cpu_only(const Facts& f, FindingSink& out);
void ort_cpu_package_shadows_gpu(const Facts& f, FindingSink& out);
void ort_cuda_provider_libs_missing(const Facts& f, FindingSink& out);
void paddle_cpu_only_build(const Facts& f, FindingSink& out);
void toolchain_lib_unresolved(const Facts& f, FindingSink& out);
void toolchain_multiple_cuda_runtimes(const Facts& f, FindingSink& out);
void deep_disagrees_with_static(const Facts& f, FindingSink& out);
void python_sys_path_unknown(const Facts& f, FindingSink& out);

}  // namespace gpudoctor::checks::framework
