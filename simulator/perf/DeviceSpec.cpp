/// \file
/// DeviceSpec: JSON ⇄ struct with key-naming errors; built-in files are embedded by
/// DeviceData.cmake.
#include "perf/DeviceSpec.h"

#include <fstream>
#include <sstream>

namespace warplens::perf {

namespace detail {
struct EmbeddedDeviceFile {
  const char *name;
  const char *text;
};
extern const EmbeddedDeviceFile kEmbeddedDeviceFiles[];
extern const std::size_t kEmbeddedDeviceFileCount;
} // namespace detail

namespace {

using json = nlohmann::json;

struct NumField {
  const char *key;
  double DeviceSpec::*d = nullptr;
  unsigned DeviceSpec::*u = nullptr;
  bool required = true;
};

const NumField kNumFields[] = {
    {"sms", nullptr, &DeviceSpec::sms},
    {"smClockHz", &DeviceSpec::smClockHz, nullptr},
    {"overlapP", &DeviceSpec::overlapP, nullptr, false},
    {"overlapLatencyP", &DeviceSpec::overlapLatencyP, nullptr, false},
    {"dramPeakBytesPerSecond", &DeviceSpec::dramPeakBytesPerSecond, nullptr},
    {"l2ReuseBytes", &DeviceSpec::l2ReuseBytes, nullptr, false},
    {"subPartitions", nullptr, &DeviceSpec::subPartitions, false},
    {"maxWarpsPerSm", nullptr, &DeviceSpec::maxWarpsPerSm, false},
    {"maxBlocksPerSm", nullptr, &DeviceSpec::maxBlocksPerSm, false},
    {"maxThreadsPerBlock", nullptr, &DeviceSpec::maxThreadsPerBlock, false},
    {"registersPerSm", nullptr, &DeviceSpec::registersPerSm, false},
    {"registerAllocUnit", nullptr, &DeviceSpec::registerAllocUnit, false},
    {"sharedBytesPerSm", nullptr, &DeviceSpec::sharedBytesPerSm, false},
    {"sharedAllocUnit", nullptr, &DeviceSpec::sharedAllocUnit, false},
    {"sharedReservedPerBlock", nullptr, &DeviceSpec::sharedReservedPerBlock, false},
};

const std::pair<const char *, double Coefficients::*> kCoefFields[] = {
    {"launchNs", &Coefficients::launchNs},
    {"fillNs", &Coefficients::fillNs},
    {"blockNs", &Coefficients::blockNs},
    {"dramNsPerByte", &Coefficients::dramNsPerByte},
    {"l2NsPerByte", &Coefficients::l2NsPerByte},
    {"storeNsPerSector", &Coefficients::storeNsPerSector},
    {"lsuCyclesPerWavefront", &Coefficients::lsuCyclesPerWavefront},
    {"latencyNsPerRequest", &Coefficients::latencyNsPerRequest},
    {"latencyL2Ns", &Coefficients::latencyL2Ns},
    {"latencyL1Ns", &Coefficients::latencyL1Ns},
    {"roundNs", &Coefficients::roundNs},
    {"storeNsPerLine", &Coefficients::storeNsPerLine},
    {"barrierNsPerByte", &Coefficients::barrierNsPerByte},
    {"barrierLsuCycles", &Coefficients::barrierLsuCycles},
    {"barrierIssueCycles", &Coefficients::barrierIssueCycles},
    {"loadedLatencyNs", &Coefficients::loadedLatencyNs},
    {"writeLoadedLatencyNs", &Coefficients::writeLoadedLatencyNs},
    {"latencyRegionNs", &Coefficients::latencyRegionNs},
    {"shuffleCycles", &Coefficients::shuffleCycles},
    {"atomicNsPerRequest", &Coefficients::atomicNsPerRequest},
    {"atomicStepNs", &Coefficients::atomicStepNs},
    {"atomicOpNs", &Coefficients::atomicOpNs},
    {"atomicLineNs", &Coefficients::atomicLineNs},
    {"atomicSectorNs", &Coefficients::atomicSectorNs},
    {"warpLaunchNs", &Coefficients::warpLaunchNs},
    {"atomicIntStepNs", &Coefficients::atomicIntStepNs},
    {"barrierWaveNs", &Coefficients::barrierWaveNs},
    {"atomicTailStepNs", &Coefficients::atomicTailStepNs},
    {"computeScale", &Coefficients::computeScale},
    {"dramRefetchNsPerByte", &Coefficients::dramRefetchNsPerByte},
    {"l2NsPerLine", &Coefficients::l2NsPerLine},
};

Expected<std::string> embeddedText(std::string_view name) {
  for (std::size_t i = 0; i < detail::kEmbeddedDeviceFileCount; ++i)
    if (std::string(detail::kEmbeddedDeviceFiles[i].name) == std::string(name) + ".json")
      return std::string(detail::kEmbeddedDeviceFiles[i].text);
  std::string known;
  for (const auto &n : listDevices()) known += (known.empty() ? "" : ", ") + n;
  return Error{"--device: unknown device '" + std::string(name) + "' (known: " + known + ")", 2};
}

} // namespace

Expected<DeviceSpec> parseDevice(const json &j, const std::string &where) {
  if (!j.is_object()) return Error{where + ": expected a JSON object", 2};
  DeviceSpec d;
  auto str = [&](const char *key, std::string &out, bool required) -> Status {
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) return Error{where + ": key '" + key + "': missing", 2};
      return {};
    }
    if (!it->is_string()) return Error{where + ": key '" + key + "': expected a string", 2};
    out = it->get<std::string>();
    return {};
  };
  WL_CHECK(str("name", d.name, true));
  WL_CHECK(str("description", d.description, true));
  WL_CHECK(str("arch", d.arch, true));
  WL_CHECK(str("fitted", d.fitted, false));
  WL_CHECK(str("source", d.source, true));
  for (const auto &f : kNumFields) {
    auto it = j.find(f.key);
    if (it == j.end()) {
      if (f.required) return Error{where + ": key '" + f.key + "': missing", 2};
      continue;
    }
    if (!it->is_number() || it->get<double>() < 0)
      return Error{where + ": key '" + f.key + "': expected a non-negative number", 2};
    if (f.d) d.*(f.d) = it->get<double>();
    else d.*(f.u) = static_cast<unsigned>(it->get<double>());
  }
  if (d.sms == 0 || d.smClockHz <= 0) return Error{where + ": keys 'sms' and 'smClockHz' must be > 0", 2};
  auto c = j.find("coefficients");
  if (c == j.end() || !c->is_object()) return Error{where + ": key 'coefficients': missing object", 2};
  for (const auto &[key, member] : kCoefFields) {
    auto it = c->find(key);
    if (it == c->end()) return Error{where + ": key 'coefficients." + key + "': missing", 2};
    if (!it->is_number() || it->get<double>() < 0)
      return Error{where + ": key 'coefficients." + key + "': expected a non-negative number", 2};
    d.coef.*member = it->get<double>();
  }
  for (auto it = c->begin(); it != c->end(); ++it) {
    bool known = false;
    for (const auto &[key, _] : kCoefFields) known = known || it.key() == key;
    if (!known) return Error{where + ": key 'coefficients." + it.key() + "': unknown coefficient", 2};
  }
  if (auto f = j.find("fit"); f != j.end()) d.fit = *f;
  return d;
}

json toJson(const DeviceSpec &d) {
  json j = json::object();
  j["name"] = d.name;
  j["description"] = d.description;
  j["arch"] = d.arch;
  for (const auto &f : kNumFields) j[f.key] = f.d ? d.*(f.d) : static_cast<double>(d.*(f.u));
  json c = json::object();
  for (const auto &[key, member] : kCoefFields) c[key] = d.coef.*member;
  j["coefficients"] = c;
  j["fitted"] = d.fitted;
  j["source"] = d.source;
  if (!d.fit.is_null()) j["fit"] = d.fit;
  return j;
}

Expected<DeviceSpec> loadDevice(std::string_view nameOrPath) {
  std::string n(nameOrPath);
  std::string text, where;
  if (n.size() > 5 && n.substr(n.size() - 5) == ".json") {
    std::ifstream in(n);
    if (!in) return Error{n + ": cannot read the device file", 2};
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    where = n;
  } else {
    WL_TRY(t, embeddedText(n));
    text = t;
    where = "devices/" + n + ".json";
  }
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return Error{where + ": not valid JSON", 2};
  return parseDevice(j, where);
}

std::vector<std::string> listDevices() {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < detail::kEmbeddedDeviceFileCount; ++i) {
    std::string f = detail::kEmbeddedDeviceFiles[i].name;
    out.push_back(f.substr(0, f.size() - 5));
  }
  return out;
}

std::string defaultDeviceFor(std::string_view arch) {
  return arch == "sm_90" ? "h100_sxm" : "";
}

} // namespace warplens::perf
