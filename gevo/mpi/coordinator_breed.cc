//===- coordinator_breed.cc - A search's recipes bred on the ranks --------===//
//
// Coordinator::breed(): rank 0 hands out recipes (a search's draws, opaque
// here) and waits for the bred variants, so that building, checking and
// keying children happens on the evaluating ranks, in parallel. A rank lost
// meanwhile has its recipes sent to the others; with no rank left, the
// unanswered ones come back empty for the caller to breed itself.
//
//===----------------------------------------------------------------------===//

#include <cstdio>

#include "gevo/mpi/channel.h"
#include "gevo/mpi/coordinator.h"

namespace gevo {

std::vector<std::optional<std::string>>
Coordinator::breed(const std::vector<std::string> &recipes) {
  double entered = threadCpuSeconds();
  markFirstJob(entered);
  breedRecipes = &recipes;
  breedAt.assign(recipes.size(), -1);
  bredAnswers.assign(recipes.size(), std::nullopt);
  breedLeft = recipes.size();
  Backoff backoff;
  while (breedLeft > 0) {
    double iteration = threadCpuSeconds();
    bool busy = poll();
    checkSilence();
    if (!anyUsable())
      break; // the caller breeds what is left
    sendRecipes();
    dispatch(); // measurements in flight (a steady search's) go on
    outbox->progress();
    if (busy) {
      backoff.reset();
      continue;
    }
    backoff.idle();
    pollingCpu += threadCpuSeconds() - iteration;
  }
  breedRecipes = nullptr;
  breedAt.clear();
  for (Rank &rank : ranks)
    rank.breeding = 0;
  dispatchCpu += threadCpuSeconds() - entered;
  return std::move(bredAnswers);
}

void Coordinator::sendRecipes() {
  std::vector<size_t> ready;
  for (size_t r = 1; r < ranks.size(); ++r)
    if (ranks[r].state == Rank::State::Ready)
      ready.push_back(r);
  if (ready.empty())
    return; // still starting
  std::vector<std::vector<std::pair<uint64_t, std::string>>> perRank(
      ranks.size());
  size_t turn = 0;
  for (size_t i = 0; i < breedAt.size(); ++i)
    if (breedAt[i] == -1) {
      size_t r = ready[turn++ % ready.size()];
      perRank[r].emplace_back(i, (*breedRecipes)[i]);
    }
  auto now = SteadyClock::now();
  for (size_t r : ready) {
    if (perRank[r].empty())
      continue;
    Rank &rank = ranks[r];
    if (rank.holding.empty() && rank.breeding == 0)
      rank.lastHeard = now; // silence counts from here
    if (!outbox->send(static_cast<int>(r), kTagBreed,
                      encodeNumbered(perRank[r]))) {
      lose(static_cast<int>(r), "MPI refused to send it recipes");
      continue;
    }
    for (const auto &[i, text] : perRank[r])
      breedAt[i] = static_cast<int>(r);
    rank.breeding += static_cast<int>(perRank[r].size());
  }
}

void Coordinator::handleBred(int source, const std::string &text) {
  absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>> answers =
      decodeNumbered(text);
  if (!answers.ok())
    return lose(source, std::string(answers.status().message()));
  Rank &rank = ranks[static_cast<size_t>(source)];
  for (const auto &[i, answer] : *answers) {
    if (i >= breedAt.size() || breedAt[i] != source)
      continue; // late: sent again elsewhere, or from an earlier breed()
    std::string why;
    bredAnswers[i] = decodeBred(answer, &why);
    if (!bredAnswers[i] && log)
      std::fprintf(log, "mpi: rank %d could not breed recipe %llu (%s)\n",
                   source, static_cast<unsigned long long>(i), why.c_str());
    breedAt[i] = 0;
    --breedLeft;
    --rank.breeding;
    ++bred;
  }
}

} // namespace gevo
