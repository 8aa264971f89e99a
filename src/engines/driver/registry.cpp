// The engine registry (engine.hpp, make_engine): the engines a user names with --engine.
// It lives with the driver, the one target that links every kind of engine.
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/greedy.hpp"
#include "ccsched/engines/hgsa.hpp"
#include "ccsched/engines/mboa.hpp"
#include "ccsched/engines/sat.hpp"
#include "ccsched/engines/umda.hpp"

namespace ccsched {

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names{"greedy", "sat", "umda", "hgsa", "mboa"};
  return names;
}

std::unique_ptr<Engine> make_engine(std::string_view name, const EngineOptions& options) {
  if (name == "greedy") return std::make_unique<GreedyEngine>(options);
  if (name == "sat") return std::make_unique<SatEngine>(options);
  if (name == "umda") return std::make_unique<UmdaEngine>(options);
  if (name == "hgsa") return std::make_unique<HgsaEngine>(options);
  if (name == "mboa") return std::make_unique<MboaEngine>(options);
  throw InvalidParameter(
      "unknown engine '" + std::string(name) + "' (known: auto, greedy, sat, umda, hgsa, mboa)",
      "--engine");
}

}  // namespace ccsched
