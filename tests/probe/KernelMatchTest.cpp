/// \file
/// Kernel-name matching of the probe (demangled, unqualified, prefix, ambiguity, not found).
#ifdef WARPLENS_HAVE_CUPTI
#include "cupti_probe/KernelMatch.h"

#include <gtest/gtest.h>

namespace warplens::probe {
namespace {

const std::vector<std::string> kNames = {
    "_Z14transposeNaivePfPKfi", // transposeNaive(float*, float const*, int)
    "_Z10copySharedPfPKfii",    // copyShared(float*, float const*, int, int)
    "copy_f32",                 // extern "C"
    "_ZN2ns6kernelIiEEvPi",     // void ns::kernel<int>(int*)
};

TEST(KernelMatch, Demangles) {
  EXPECT_EQ(demangle("_Z14transposeNaivePfPKfi"), "transposeNaive(float*, float const*, int)");
  EXPECT_EQ(demangle("copy_f32"), "copy_f32");
}

TEST(KernelMatch, ExactMangledAndExternC) {
  EXPECT_EQ(matchKernelName("copy_f32", kNames, "s").value(), "copy_f32");
  EXPECT_EQ(matchKernelName("_Z10copySharedPfPKfii", kNames, "s").value(), "_Z10copySharedPfPKfii");
}

TEST(KernelMatch, DemangledForms) {
  EXPECT_EQ(matchKernelName("transposeNaive", kNames, "s").value(), "_Z14transposeNaivePfPKfi");
  EXPECT_EQ(matchKernelName("transposeNaive(float*, float const*, int)", kNames, "s").value(),
            "_Z14transposeNaivePfPKfi");
  EXPECT_EQ(matchKernelName("ns::kernel<int>", kNames, "s").value(), "_ZN2ns6kernelIiEEvPi");
  EXPECT_EQ(matchKernelName("kernel", kNames, "s").value(), "_ZN2ns6kernelIiEEvPi");
}

TEST(KernelMatch, UniquePrefix) {
  EXPECT_EQ(matchKernelName("transpose", kNames, "s").value(), "_Z14transposeNaivePfPKfi");
}

TEST(KernelMatch, AmbiguousPrefixNamesBoth) {
  auto r = matchKernelName("copy", kNames, "suite.json: launches[2]");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("suite.json: launches[2]"), std::string::npos);
  EXPECT_NE(r.error().message.find("ambiguous"), std::string::npos);
  EXPECT_NE(r.error().message.find("copy_f32"), std::string::npos);
  EXPECT_NE(r.error().message.find("copyShared"), std::string::npos);
}

TEST(KernelMatch, NotFoundListsTheModule) {
  auto r = matchKernelName("sgemm", kNames, "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'sgemm' not found"), std::string::npos);
  EXPECT_NE(r.error().message.find("transposeNaive(float*, float const*, int)"), std::string::npos);
}

} // namespace
} // namespace warplens::probe
#endif
