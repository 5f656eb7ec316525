// The process tree under one root pid, read through the FileSystem: the root, its children, their
// children, and so on (DataLoader workers, torchrun's ranks, a shell's pipeline). Children come from
// /proc/PID/task/TID/children (every thread can be a parent); where the kernel lacks that file
// (CONFIG_PROC_CHILDREN off) one scan of every /proc/PID/stat's PPid field does the same job.
//
// A pid read here may exit a moment later; callers treat a vanished pid as gone, not as an error.
#pragma once

#include <map>
#include <vector>

#include <sys/file_system.hpp>

namespace gpudoctor::watch {

// The root first, then descendants breadth-first; empty when the root itself is gone.
std::vector<int> process_tree(const sys::FileSystem& fs, int root);

// The same from a pid -> parent-pid table (what the /proc scan reads).
std::vector<int> tree_from_parents(const std::map<int, int>& parent_of, int root);

}  // namespace gpudoctor::watch
