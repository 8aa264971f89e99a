// sat::solve_detachable (src/engines/exact/cnf.hpp): a solver that does not stop when the
// budget runs out is abandoned to its thread, so the call still returns at the limit
// (docs/RELIABILITY.md, "Time limits and Ctrl-C").
#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "exact/cnf.hpp"

namespace ccsched {
namespace {

// Pigeons into one hole fewer: unsatisfiable, and hard for resolution (Haken 1985), so
// CaDiCaL does not finish 11 into 10 within seconds.
void add_pigeonhole(CaDiCaL::Solver& solver, int holes) {
  const int pigeons = holes + 1;
  const auto var = [&](int p, int h) { return p * holes + h + 1; };
  for (int p = 0; p < pigeons; ++p) {
    for (int h = 0; h < holes; ++h) solver.add(var(p, h));
    solver.add(0);
  }
  for (int h = 0; h < holes; ++h)
    for (int p = 0; p < pigeons; ++p)
      for (int q = p + 1; q < pigeons; ++q) {
        solver.add(-var(p, h));
        solver.add(-var(q, h));
        solver.add(0);
      }
}

// A phase that never polls: the solver hears "go on" whatever the budget says.
class NeverStop final : public CaDiCaL::Terminator {
 public:
  bool terminate() override { return false; }
};

TEST(SolveDetachable, AnswersLikeSolveWhenTheSolverFinishes) {
  auto solver = std::make_unique<CaDiCaL::Solver>();
  add_pigeonhole(*solver, 4);
  const Budget budget(60.0);
  EXPECT_EQ(sat::solve_detachable(solver, *solver, budget), 20);
  ASSERT_NE(solver, nullptr);  // kept: it answered
  solver->add(1);              // and still usable here
  solver->add(0);
  EXPECT_EQ(sat::solve_detachable(solver, *solver, budget), 20);
}

TEST(SolveDetachable, AbandonsASolverThatIgnoresTheLimit) {
  auto solver = std::make_unique<CaDiCaL::Solver>();
  add_pigeonhole(*solver, 11);
  NeverStop never;
  const Budget budget(0.3);
  const auto start = std::chrono::steady_clock::now();
  const int answer = sat::solve_detachable(solver, *solver, budget, &never);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(answer, 0);
  EXPECT_EQ(solver, nullptr);  // handed to its thread, which frees it when it returns
  EXPECT_LT(seconds, 0.3 + 0.1 + 0.5);  // the limit, the grace, and a busy machine's slack
}

TEST(SolveDetachable, KeepsASolverItDoesNotOwn) {
  // Without an owner nothing can be handed over: the call waits for the solver, which
  // the budget stops here.
  CaDiCaL::Solver solver;
  add_pigeonhole(solver, 11);
  std::unique_ptr<CaDiCaL::Solver> none;
  const Budget budget(0.2);
  EXPECT_EQ(sat::solve_detachable(none, solver, budget), 0);
}

}  // namespace
}  // namespace ccsched
