#include <watch/proc_parse.hpp>

#include <gtest/gtest.h>

#include <watch/timeline.hpp>

namespace gpudoctor::watch {
namespace {

TEST(ProcParse, StatWithAHostileCommName) {
  // comm is the program's choice: spaces and ')' included; fields follow the last ')'.
  std::string line =
      "4242 (evil) (name) S 4000 4242 4000 34816 4242 4194304 1000 0 0 0 250 75 0 0 20 0 7 0 123456 "
      "2147483648 51200 18446744073709551615 1 1 0 0 0 0 0 16781312 2 0 0 0 17 3 0 0 0 0 0\n";
  auto s = parse_stat(line);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->comm, "evil) (name");
  EXPECT_EQ(s->state, 'S');
  EXPECT_EQ(s->ppid, 4000);
  EXPECT_EQ(s->utime, 250u);
  EXPECT_EQ(s->stime, 75u);
  EXPECT_EQ(s->threads, 7);
  EXPECT_EQ(s->start_time, 123456u);
  EXPECT_EQ(s->vsize, 2147483648u);
  EXPECT_EQ(s->rss_pages, 51200u);
}

TEST(ProcParse, MalformedStatIsRejected) {
  EXPECT_FALSE(parse_stat(""));
  EXPECT_FALSE(parse_stat("12 (x) S 1 2 3"));
  EXPECT_FALSE(parse_stat("12 x S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22"));
}

TEST(ProcParse, MapsNameEachGpuLibraryOnce) {
  std::string maps =
      "7f0000000000-7f0000001000 r--p 00000000 08:01 123 /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14\n"
      "7f0000001000-7f0000002000 r-xp 00001000 08:01 123 /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14\n"
      "7f0000003000-7f0000004000 r--p 00000000 08:01 124 /venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so\n"
      "7f0000005000-7f0000006000 r--p 00000000 08:01 125 /opt/rocm/lib/libamdhip64.so.6.1.40100\n"
      "7f0000007000-7f0000008000 rw-p 00000000 00:00 0 \n"
      "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]\n"
      "7f0000009000-7f000000a000 r--p 00000000 08:01 126 /usr/lib/x86_64-linux-gnu/libc.so.6\n";
  EXPECT_EQ(library_names(gpu_libraries_in_maps(maps)),
            (std::vector<std::string>{"libcuda", "libtorch_cuda", "libamdhip64"}));
}

TEST(ProcParse, LibcudaIsNotLibcudart) {
  EXPECT_EQ(library_of_path("/usr/local/cuda/lib64/libcudart.so.13"), static_cast<std::uint32_t>(GpuLibrary::libcudart));
  EXPECT_EQ(library_of_path("/usr/lib/wsl/lib/libcuda.so.1"), static_cast<std::uint32_t>(GpuLibrary::libcuda));
  EXPECT_EQ(library_of_path("/usr/lib/libnvidia-ml.so.1"), static_cast<std::uint32_t>(GpuLibrary::libnvidia_ml));
  EXPECT_EQ(library_of_path("/usr/lib/libcudadebugger.so.1"), 0u);
  EXPECT_EQ(library_of_path("/home/u/libcuda.so.notes/readme"), 0u);
}

TEST(ProcParse, GpuDevicesAndContexts) {
  for (const char* d : {"/dev/nvidia0", "/dev/nvidia12", "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/kfd",
                        "/dev/dri/renderD128", "/dev/nvidia-caps/nvidia-cap1"}) {
    EXPECT_TRUE(is_gpu_device_path(d)) << d;
  }
  for (const char* d : {"/dev/null", "/dev/pts/3", "socket:[12345]", "/dev/dri/card0", "pipe:[9]"}) {
    EXPECT_FALSE(is_gpu_device_path(d)) << d;
  }
  // nvidiactl and nvidia-uvm are opened by cuInit before any device is chosen.
  EXPECT_TRUE(is_gpu_context_device("/dev/nvidia3"));
  EXPECT_TRUE(is_gpu_context_device("/dev/kfd"));
  EXPECT_FALSE(is_gpu_context_device("/dev/nvidiactl"));
  EXPECT_FALSE(is_gpu_context_device("/dev/nvidia-uvm"));
  EXPECT_EQ(nvidia_minor("/dev/nvidia3"), 3);
  EXPECT_EQ(nvidia_minor("/dev/nvidia-uvm-tools"), std::nullopt);
}

}  // namespace
}  // namespace gpudoctor::watch
