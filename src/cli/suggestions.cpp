// "Did you mean" for command lines: the closest option or command names to
// what CLI11 refused, and a check of a value against a list of names.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "commands.hpp"
#include "registry/registry.hpp"

namespace aeval::cli {

namespace {

// The command and the subcommands the command line chose, outermost first.
std::vector<const CLI::App*> chosen_commands(const CLI::App& app) {
  std::vector<const CLI::App*> chain{&app};
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const CLI::App* sub : chain.back()->get_subcommands({}))
      if (sub->parsed()) {
        chain.push_back(sub);
        deeper = true;
        break;
      }
  }
  return chain;
}

// The long options of the chosen commands (a command's own, and the global ones): a letter has no near misses.
std::vector<std::string> long_options(const std::vector<const CLI::App*>& chain) {
  std::vector<std::string> options;
  for (const CLI::App* command : chain)
    for (const CLI::Option* option : command->get_options())
      for (const auto& name : option->get_lnames()) options.push_back("--" + name);
  return options;
}

}  // namespace

std::string unexpected_arguments(const CLI::App& app, const std::vector<std::string>& argv) {
  std::vector<std::string> left = app.remaining(true);  // what no option or command took, in no useful order
  const auto take = [&](const std::string& arg) {
    const auto at = std::find(left.begin(), left.end(), arg);
    if (at == left.end()) return false;
    left.erase(at);
    return true;
  };
  const std::vector<std::string> options = long_options(chosen_commands(app));
  std::vector<std::string> lines;
  std::vector<bool> said(argv.size());
  // Unknown options first, each with the value that follows it, so that its value is not reported as well.
  for (std::size_t k = 1; k < argv.size(); ++k) {
    const std::string& arg = argv[k];
    if (arg.size() < 2 || arg.front() != '-' || !take(arg)) continue;
    said[k] = true;
    const std::string name = arg.substr(0, arg.find('='));
    const auto best = name.rfind("--", 0) == 0 ? registry::did_you_mean(name, options) : std::vector<std::string>{};
    lines.push_back(fmt::format("unknown option {}{}", name,
                                best.empty() ? "" : fmt::format(" (did you mean {}?)", fmt::join(best, " or "))));
    const bool valued = arg.find('=') == std::string::npos && k + 1 < argv.size() && argv[k + 1].rfind('-', 0) != 0;
    if (valued && take(argv[k + 1])) said[++k] = true;
  }
  for (std::size_t k = 1; k < argv.size(); ++k)
    if (!said[k] && take(argv[k])) lines.push_back("unexpected argument " + argv[k]);
  return fmt::format("{}", fmt::join(lines, "\n"));
}

std::string command_line_suggestion(const CLI::App& app, const std::vector<std::string>& argv) {
  const auto chain = chosen_commands(app);
  const std::vector<std::string> options = long_options(chain);
  std::vector<std::string> commands;
  for (const CLI::App* sub : chain.back()->get_subcommands({})) commands.push_back(sub->get_name());
  std::vector<std::string> said;
  for (std::size_t k = 1; k < argv.size(); ++k) {
    const std::string& arg = argv[k];
    if (arg.rfind("--", 0) == 0) {
      const std::string name = arg.substr(0, arg.find('='));
      if (std::find(options.begin(), options.end(), name) == options.end())
        for (const auto& best : registry::did_you_mean(name, options)) said.push_back(best);
    } else if (!commands.empty() && arg.front() != '-' && !(k > 1 && argv[k - 1].rfind("--", 0) == 0 &&
                                                              argv[k - 1].find('=') == std::string::npos)) {
      // A word where a command is due (not the value of the option before it).
      if (std::find(commands.begin(), commands.end(), arg) == commands.end())
        for (const auto& best : registry::did_you_mean(arg, commands)) said.push_back(best);
      break;
    }
  }
  if (said.empty()) return "";
  said.erase(std::unique(said.begin(), said.end()), said.end());
  return fmt::format("did you mean: {}?", fmt::join(said, ", "));
}

CLI::Validator one_of(std::vector<std::string> names) {
  return CLI::Validator(
      [names](const std::string& value) -> std::string {
        if (std::find(names.begin(), names.end(), value) != names.end()) return "";
        return fmt::format("'{}' is none of {}{}", value, fmt::join(names, ", "),
                           registry::suggestion_suffix(value, names));
      },
      fmt::format("{{{}}}", fmt::join(names, ",")), "one of");
}

}  // namespace aeval::cli
