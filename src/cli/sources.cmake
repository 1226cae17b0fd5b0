set(tare_cli_sources
  src/cli/tare_main.cpp
  src/cli/run_command.cpp
  src/cli/exec_command.cpp
  src/cli/compare_command.cpp
  src/cli/report_command.cpp
  src/cli/target_kind.cpp
)
