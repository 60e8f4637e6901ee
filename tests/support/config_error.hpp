#pragma once
// The message of the config error `f` throws ("<no error>" when it throws none).
#include <functional>
#include <string>

namespace aeval::testing {

std::string config_error(const std::function<void()>& f);

}  // namespace aeval::testing
