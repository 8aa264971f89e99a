// The smallest useful ccsched program: an all-to-all scatter on the 12-node Kautz network
// (seed 000 Table 3) and a one-port broadcast on a 4-cube, each with its bound and claim,
// the first written as a schedule document that `ccsched verify` reads.
#include <ccsched/ccsched.hpp>

#include <cstdio>
#include <fstream>

int main(int argc, char** argv) {
  try {
    const ccsched::Outcome aas = ccsched::solve("kautz:3,2", ccsched::CollectiveKind::AAS);
    std::printf("kautz:3,2 AAS: %d steps, lower bound %d, %s, %zu violations\n", aas.steps,
                aas.lower_bound, aas.optimal ? "optimal" : "not proven optimal",
                ccsched::verify_schedule(*aas.schedule).size());
    if (argc > 1) std::ofstream(argv[1]) << ccsched::write_schedule_json(*aas.schedule);

    ccsched::SolveOptions options;
    options.ports = 1;
    options.root = "0";
    options.time_limit = 30;
    const ccsched::Outcome oab =
        ccsched::solve("hypercube:4", ccsched::CollectiveKind::OAB, options);
    std::printf("hypercube:4 OAB 1-port: %d steps, lower bound %d, %s\n", oab.steps,
                oab.lower_bound, oab.optimal ? "optimal" : "not proven optimal");

    options.root = "99";  // not a processor: the command's one-line error
    ccsched::solve("hypercube:4", ccsched::CollectiveKind::OAB, options);
  } catch (const ccsched::Error& e) {
    std::printf("error: %s\n", e.what());
  }
  return 0;
}
