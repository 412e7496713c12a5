/// \file main.cpp
/// \brief The main of every figures program (figuresNN, figuresNN_solution): it writes what the
/// lesson's figures.cpp registered. `figuresNN --help` says how.
#include "common/figures.hpp"

int main(int argc, char** argv) {
  return course::fig::run(argc, argv);
}
