//===- steady_loop.cc - Steady-state search: a child per free worker ------===//

#include "gevo/search/steady_loop.h"

#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

/// How long one wait for an arrival may last before the loop looks again
/// (whether the budget allows another child).
constexpr int kServiceMs = 100;

} // namespace

void SteadyLoop::start(Individual child) {
  int64_t id = nextId++;
  flying[id] = Flying{child, SteadyClock::now()};
  evaluator.submit(std::move(child), [this, id](Individual measured) {
    auto it = flying.find(id);
    double seconds = secondsSince(it->second.since);
    meanSeconds = meanSeconds > 0 ? 0.9 * meanSeconds + 0.1 * seconds : seconds;
    flying.erase(it);
    arrivals.push_back(std::move(measured));
  });
}

std::vector<Individual> SteadyLoop::inFlight() const {
  std::vector<Individual> out;
  for (const auto &[id, flight] : flying)
    out.push_back(flight.child);
  return out;
}

absl::Status SteadyLoop::run(std::vector<Individual> pending,
                             const SteadyHooks &hooks) {
  for (Individual &child : pending)
    start(std::move(child));
  while (true) {
    // Arrivals first, in the order they came: each is selected and
    // recorded before the next child is bred from the population.
    while (!arrivals.empty()) {
      Individual child = std::move(arrivals.front());
      arrivals.pop_front();
      population = algorithm.arrive(std::move(population), child);
      GEVO_RETURN_IF_ERROR(hooks.arrived(child));
    }
    if (static_cast<int>(flying.size()) < evaluator.slots() &&
        hooks.mayStart()) {
      start(algorithm.breedOne(population, hooks.breedingGeneration()));
      continue; // a cache hit arrived at once: take it before the next
    }
    if (flying.empty())
      return absl::OkStatus();
    evaluator.service(kServiceMs);
  }
}

} // namespace gevo
