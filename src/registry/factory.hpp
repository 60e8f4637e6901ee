#pragma once
// Where each kind of component finds how to build a class from its entry.
// A class registers itself in its own file:
//
//   const ModelClasses::Registration kPocketSphinx{
//       {Kind::model, "pocketsphinx", "CMU PocketSphinx speech recognition", {arg::..., ...}},
//       [](const Args& args) { return make_pocketsphinx_asr(...); }};
//
// so loaders have no list of class ids, and adding a class touches one file.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <type_traits>

#include "aeval/error.hpp"
#include "registry/args.hpp"
#include "registry/classes.hpp"

namespace aeval::registry {

template <class Product, class... Context>
class ClassFactories {
 public:
  using Factory = std::function<Product(const Args& args, Context... context)>;

  struct Registration {
    Registration(const ClassSpec& spec, Factory factory) {
      declare_class(spec);
      factories().emplace(spec.id, std::move(factory));
    }
    // A class that needs its arguments alone, where the kind offers context too.
    template <class Plain>
      requires(sizeof...(Context) > 0 && std::is_invocable_r_v<Product, const Plain&, const Args&>)
    Registration(const ClassSpec& spec, Plain plain)
        : Registration(spec, Factory([plain](const Args& args, Context...) { return plain(args); })) {}
  };

  // The component `entry` (already validated) describes.
  static Product make(const Entry& entry, Kind kind, Context... context) {
    const ClassSpec& spec = class_spec(entry, kind);
    const auto found = factories().find(spec.id);
    if (found == factories().end())
      throw Error(ErrorCategory::internal, entry.where() + ": class '" + spec.id + "' has no factory");
    return found->second(Args(entry, spec), context...);
  }

 private:
  static std::map<std::string, Factory>& factories() {
    static std::map<std::string, Factory> map;  // built before the first registration uses it
    return map;
  }
};

}  // namespace aeval::registry
