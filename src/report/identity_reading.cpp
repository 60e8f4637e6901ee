// The identity readings evaluator classes declare, by class id.
#include "report/identity_reading.hpp"

#include <map>

namespace aeval::report {

namespace {
std::map<std::string, IdentityReading>& readings() {
  static std::map<std::string, IdentityReading> by_class;  // filled at static initialisation only
  return by_class;
}
}  // namespace

DeclareIdentityReading::DeclareIdentityReading(const std::string& class_id, IdentityReading reading) {
  readings()[class_id] = std::move(reading);
}

const IdentityReading* identity_reading(const std::string& class_id) {
  const auto it = readings().find(class_id);
  return it == readings().end() ? nullptr : &it->second;
}

}  // namespace aeval::report
