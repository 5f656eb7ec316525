// The signature table is reviewed knowledge: these tests hold every row to its own example (the
// message exactly as printed), keep the ids and templates consistent, and check that ordinary
// log lines that merely look similar match nothing.
#include <watch/signature.hpp>

#include <re2/re2.h>

#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include <watch/line_matcher.hpp>

namespace gpudoctor::watch {
namespace {

std::map<std::string, std::set<std::string>> explains_by_id() {
  std::map<std::string, std::set<std::string>> out;
  for (const Signature& s : signatures()) out[s.id].insert(s.explains.begin(), s.explains.end());
  return out;
}

bool related(const std::string& a, const std::string& b) {
  static const auto k_explains = explains_by_id();
  auto has = [&](const std::string& x, const std::string& y) {
    auto it = k_explains.find(x);
    return it != k_explains.end() && it->second.count(y) > 0;
  };
  return has(a, b) || has(b, a);
}

std::set<std::string> group_names(const std::string& pattern) {
  RE2 re(pattern);
  std::set<std::string> out;
  for (const auto& [name, index] : re.NamedCapturingGroups()) out.insert(name);
  return out;
}

// The placeholders of `text` that sit outside an optional "[...]" segment.
std::set<std::string> required_placeholders(std::string_view text) {
  std::set<std::string> out;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[') ++depth;
    if (text[i] == ']' && depth > 0) --depth;
    if (text[i] == '{') {
      std::size_t close = text.find('}', i);
      if (close == std::string_view::npos) break;
      if (depth == 0) out.insert(std::string(text.substr(i + 1, close - i - 1)));
      i = close;
    }
  }
  return out;
}

std::set<std::string> all_placeholders(std::string_view text) {
  std::set<std::string> out;
  for (std::size_t i = text.find('{'); i != std::string_view::npos; i = text.find('{', i + 1)) {
    std::size_t close = text.find('}', i);
    if (close == std::string_view::npos) break;
    out.insert(std::string(text.substr(i + 1, close - i - 1)));
  }
  return out;
}

TEST(Signatures, TableHasTheIssueNamedIdsAndAtLeastSixtyMessages) {
  EXPECT_GE(signatures().size(), 60u);
  std::set<std::string> ids;
  for (const Signature& s : signatures()) ids.insert(s.id);
  for (const char* id :
       {"log.cuda_oom", "log.device_mismatch", "log.input_weight_type_mismatch", "log.no_kernel_image",
        "log.arch_not_compatible", "log.driver_too_old", "log.no_nvidia_driver", "log.torch_not_compiled_with_cuda",
        "log.device_side_assert", "log.cudnn_status", "log.cublas_status", "log.nccl_error",
        "log.nvml_version_mismatch", "log.nvml_init_failed", "log.tf_missing_library", "log.tf_skipping_gpu",
        "log.jax_cpu_fallback", "log.ort_cuda_provider_failed", "log.cuda_unknown_error",
        "log.cuda_visible_devices_none"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
}

TEST(Signatures, RowsOfAnIdAgreeAndEveryRowIsComplete) {
  std::map<std::string, const Signature*> first;
  for (const Signature& s : signatures()) {
    EXPECT_EQ(s.id.rfind("log.", 0), 0u) << s.id;
    EXPECT_FALSE(s.pattern.empty()) << s.id;
    EXPECT_FALSE(s.cause.empty()) << s.id;
    EXPECT_FALSE(s.fix.empty()) << s.id;
    EXPECT_FALSE(s.source.empty()) << s.id;
    EXPECT_FALSE(s.example.empty()) << s.id;
    auto [it, inserted] = first.emplace(s.id, &s);
    if (inserted) {
      EXPECT_FALSE(s.title.empty()) << s.id << ": the first row of an id carries its title";
    } else {
      EXPECT_EQ(s.layer, it->second->layer) << s.id << ": every row of an id lives in one layer";
      EXPECT_TRUE(s.title.empty()) << s.id << ": only the first row has a title";
      EXPECT_TRUE(s.explains.empty()) << s.id << ": only the first row lists what the id explains";
    }
  }
  auto explains = explains_by_id();
  for (const auto& [id, targets] : explains) {
    for (const std::string& t : targets) {
      EXPECT_TRUE(first.count(t)) << id << " explains unknown id " << t;
      EXPECT_NE(t, id) << id << " explains itself";
      EXPECT_FALSE(explains[t].count(id)) << id << " and " << t << " explain each other";
    }
  }
}

// Blocks of many lines are prefiltered as one text, where ^ and $ would mean the block's ends.
TEST(Signatures, PatternsAreUnanchored) {
  for (const Signature& s : signatures()) {
    bool escaped = false;
    int in_class = 0;
    for (std::size_t i = 0; i < s.pattern.size(); ++i) {
      char c = s.pattern[i];
      if (escaped) {
        escaped = false;
        continue;
      }
      if (c == '\\') escaped = true;
      else if (c == '[' && !in_class) in_class = 1;
      else if (c == ']' && in_class) in_class = 0;
      else if (!in_class) {
        EXPECT_TRUE(c != '^' && c != '$') << s.id << ": anchor in " << s.pattern;
      }
    }
  }
}

TEST(Signatures, EveryExampleMatchesItsOwnRowAndNoUnrelatedId) {
  const LineMatcher& m = LineMatcher::instance();
  auto table = signatures();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Signature& s = table[i];
    bool own = false;
    for (const LineHit& hit : m.match_line(s.example)) {
      const Signature& other = table[hit.signature];
      own = own || hit.signature == i;
      if (other.id != s.id) {
        EXPECT_TRUE(related(s.id, other.id))
            << "row " << i + 1 << " (" << s.id << ") example also matches unrelated " << other.id;
      }
    }
    EXPECT_TRUE(own) << "row " << i + 1 << " (" << s.id << ") does not match its own example: " << s.example;
  }
}

// A template may only name captures its id can provide; outside optional "[...]" only captures of
// its own row, so a message never prints "?".
TEST(Signatures, TemplatesNameOnlyCapturesThatExist) {
  std::map<std::string, std::set<std::string>> names_of_id;
  for (const Signature& s : signatures()) {
    auto names = group_names(s.pattern);
    names_of_id[s.id].insert(names.begin(), names.end());
  }
  for (const Signature& s : signatures()) {
    auto own = group_names(s.pattern);
    for (const std::string* text : {&s.cause, &s.fix}) {
      for (const auto& p : required_placeholders(*text)) EXPECT_TRUE(own.count(p)) << s.id << ": {" << p << "}";
      for (const auto& p : all_placeholders(*text)) EXPECT_TRUE(names_of_id[s.id].count(p)) << s.id << ": {" << p << "}";
    }
  }
}

TEST(Signatures, ExampleCapturesFillTheMessage) {
  const LineMatcher& m = LineMatcher::instance();
  auto table = signatures();
  for (std::size_t i = 0; i < table.size(); ++i) {
    for (const LineHit& hit : m.match_line(table[i].example)) {
      if (hit.signature != i) continue;
      std::string message = expand(table[i].cause, hit.captures);
      EXPECT_EQ(message.find('{'), std::string::npos) << table[i].id << ": " << message;
      for (const auto& [name, value] : hit.captures) {
        if (required_placeholders(table[i].cause).count(name)) {
          EXPECT_NE(message.find(value), std::string::npos) << table[i].id << ": " << message;
        }
      }
    }
  }
}

TEST(Signatures, CapturedPartsAreTheVariableParts) {
  const LineMatcher& m = LineMatcher::instance();
  auto caps = [&](std::string_view line, std::string_view id) {
    for (const LineHit& hit : m.match_line(line)) {
      if (signatures()[hit.signature].id == id) return hit.captures;
    }
    return std::vector<std::pair<std::string, std::string>>{};
  };
  using C = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(caps("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of "
                 "79.19 GiB of which 1.02 GiB is free.",
                 "log.cuda_oom"),
            (C{{"size", "2.00 GiB"}, {"gpu", "3"}, {"total", "79.19 GiB"}, {"free", "1.02 GiB"}}));
  EXPECT_EQ(caps("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
                 "installation.",
                 "log.arch_not_compatible"),
            (C{{"gpu", "NVIDIA GeForce RTX 5090"}, {"sm", "120"}}));
  EXPECT_EQ(caps("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).", "log.driver_too_old"),
            (C{{"version", "11040"}}));
  EXPECT_EQ(caps("W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
                 "cannot open shared object file: No such file or directory",
                 "log.tf_missing_library"),
            (C{{"library", "libcudart.so.11.0"},
               {"dlerror", "libcudart.so.11.0: cannot open shared object file: No such file or directory"}}));
}

TEST(Signatures, NearMissesMatchNothing) {
  const LineMatcher& m = LineMatcher::instance();
  for (const char* line : {
           "Epoch 3/10: 100%|##########| 782/782 [00:41<00:00, 19.02it/s, loss=0.231, mem=3.2GiB]",
           "Using device: cuda:0",
           "torch.cuda.is_available(): True",
           "GPU available: True (cuda), used: True",
           "Device set to use cuda:0",
           "# avoid RuntimeError: Expected all tensors to be on the same device",
           "CUDA out of memory. Tried to allocate",
           "No GPU/TPU found",
           "NCCL INFO NCCL version 2.18.1+cuda12.1",
           "I tensorflow/stream_executor/platform/default/dso_loader.cc:53] Successfully opened dynamic library "
           "libcudart.so.11.0",
           "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 14791 MB memory:  -> device: 0, name: "
           "Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5",
           "Found GPU0 NVIDIA A100-SXM4-80GB",
           "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.54.03  Tue Jun  6 22:20:39 UTC 2023",
           "Available providers: 'CUDAExecutionProvider, CPUExecutionProvider'",
           "cudnn version 8902, cublas ok",
           "Driver Version: 550.54.14      CUDA Version: 12.4",
           "the model is on cuda, input_ids are on cuda",
       }) {
    auto hits = m.match_line(line);
    EXPECT_TRUE(hits.empty()) << "'" << line << "' matched " << signatures()[hits.empty() ? 0 : hits[0].signature].id;
  }
}

TEST(Signatures, ExpandFillsPlaceholdersAndOptionalSegments) {
  using C = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(expand("GPU {gpu} ran out[, needs {size}]", C{{"gpu", "0"}}), "GPU 0 ran out");
  EXPECT_EQ(expand("GPU {gpu} ran out[, needs {size}]", C{{"gpu", "0"}, {"size", "2 GiB"}}), "GPU 0 ran out, needs 2 GiB");
  EXPECT_EQ(expand("pip install \"jax[cuda12]\"", C{}), "pip install \"jax[cuda12]\"");
  EXPECT_EQ(expand("driver {version}", C{}), "driver ?");
  EXPECT_EQ(expand("driver {version}", C{{"version", ""}}), "driver ?");
}

TEST(Signatures, CatalogueHasOneEntryPerIdWithoutPlaceholders) {
  std::set<std::string> ids;
  for (const Signature& s : signatures()) ids.insert(s.id);
  auto infos = signature_infos();
  EXPECT_EQ(infos.size(), ids.size());
  for (const auto& info : infos) {
    EXPECT_EQ(info.fix.find('{'), std::string_view::npos) << info.id;
    EXPECT_FALSE(info.summary.empty()) << info.id;
  }
}

}  // namespace
}  // namespace gpudoctor::watch

namespace gpudoctor::watch {
namespace {

// The set that prefilters blocks reads patterns loosely (no \b, {0,N} as *); what a row matches is
// still decided by the row's own pattern.
TEST(LineMatcher, TheLooserPrefilterNeverChangesWhatARowMatches) {
  std::vector<Signature> table(2);
  table[0].id = "log.test_word";
  table[0].pattern = R"(\bnouveau\b[^\n]{0,10}still loaded)";
  table[1].id = "log.test_range";
  table[1].pattern = R"(GPU[0-9]{1,2} lost)";
  LineMatcher m(table);
  EXPECT_EQ(m.match_line("warning: nouveau is still loaded").size(), 1u);
  EXPECT_TRUE(m.match_line("warning: xnouveau is still loaded").empty());          // the row's \b holds
  EXPECT_TRUE(m.match_line("nouveau and much more text here is still loaded").empty());  // and its {0,10}
  EXPECT_EQ(m.match_line("GPU12 lost").size(), 1u);
  EXPECT_TRUE(m.match_line("GPU123 lost").empty());
}

}  // namespace
}  // namespace gpudoctor::watch
