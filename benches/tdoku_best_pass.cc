// tdoku timed the way `examples/native_speed.rs` times z3doku's native
// engine, for a side-by-side figure that neither the load nor the harness
// skews: each puzzle is solved with a limit of two solutions (uniqueness
// included, as `run_benchmark` does), PASSES times, and its fastest pass is
// kept. Prints per file: puzzles, mean and median of the fastest passes (µs),
// mean nodes as 1 + 2 x tdoku's guesses, and the mean over all passes. With
// PASSES = 1 it is a one-pass harness for whole-process CPU time (GNU time).
//
// Built and run by benches/tdoku_sitting.sh against ../shared/peers/tdoku
// (BSD-2-Clause); nothing of it goes into z3doku.
//
// Usage: tdoku_best_pass PASSES FILE...
// With TDOKU_NODES set, it also prints each puzzle's nodes (1 + 2 x guesses, first pass), one a
// line in the file's order, to standard error: beside `native_speed`'s Z3DOKU_NODES, a
// puzzle-by-puzzle comparison of the two searches.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

extern "C" size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t configuration,
                                           char *solution, size_t *num_guesses);

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s PASSES FILE...\n", argv[0]);
        return 2;
    }
    const int passes = atoi(argv[1]);
    const bool per_puzzle = getenv("TDOKU_NODES") != nullptr;
    for (int a = 2; a < argc; a++) {
        std::ifstream in(argv[a]);
        std::vector<std::string> set;
        std::string line;
        while (std::getline(in, line)) {
            if (line.size() < 81 || line[0] == '#') continue;
            std::string puzzle = line.substr(0, 81);
            for (char &c : puzzle) {
                if (c < '1' || c > '9') c = '.';
            }
            set.push_back(puzzle);
        }
        if (set.empty()) {
            fprintf(stderr, "%s: no puzzles\n", argv[a]);
            return 1;
        }
        std::vector<double> best(set.size(), 1e300);
        double guesses = 0;
        char solution[81];
        size_t g = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int pass = 0; pass < passes; pass++) {
            for (size_t i = 0; i < set.size(); i++) {
                const auto t = std::chrono::steady_clock::now();
                const size_t count = TdokuSolverDpllTriadSimd(set[i].c_str(), 2, 0, solution, &g);
                const double us = std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - t).count();
                if (count != 1) {
                    fprintf(stderr, "%s: %zu solutions\n", set[i].c_str(), count);
                    return 1;
                }
                best[i] = std::min(best[i], us);
                if (pass == 0) guesses += (double) g;
                if (pass == 0 && per_puzzle) fprintf(stderr, "%zu\n", 1 + 2 * g);
            }
        }
        const double all = std::chrono::duration<double, std::micro>(
                std::chrono::steady_clock::now() - start).count();
        double sum = 0;
        for (double b : best) sum += b;
        std::vector<double> sorted = best;
        std::sort(sorted.begin(), sorted.end());
        const double n = (double) set.size();
        printf("| %s | %zu | %.1f | %.1f | %.1f | %.1f |\n", argv[a], set.size(), sum / n,
               sorted[set.size() / 2], 1 + 2 * guesses / n, all / (passes * n));
    }
    return 0;
}
