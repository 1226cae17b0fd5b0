# Generates, from the `tare` command's own --help (the one source of its flags), the man page
# tare.1 and the bash and zsh completion scripts. Run at build time after the command is linked:
#   cmake -D TARE=<the tare executable> -D OUT=<folder> -D VERSION=<x.y.z> -P TareManPage.cmake
# Rejected: hand-written pages and scripts, which drift from the flags as soon as one is added.

function(help_of out)
  execute_process(COMMAND ${TARE} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${TARE} ${ARGN} --help failed (${rc})")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# roff: a backslash is \e, and a line that begins with . or ' is text, not a request. The help
# the build's command prints names the source tree's docs/; the page is read where the package
# is installed, whose copy of them is share/doc/tare/ (FILES below).
function(roff out text)
  string(REPLACE "docs/" "share/doc/tare/" text "${text}")
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

help_of(main)
string(REGEX MATCH "Subcommands:\n(.*)" listing "${main}")
string(REGEX MATCHALL "\n  [a-z]+ " names "\n${CMAKE_MATCH_1}")
set(commands "")
foreach(n IN LISTS names)
  string(STRIP "${n}" n)
  if(NOT n STREQUAL "help")
    list(APPEND commands ${n})
  endif()
endforeach()
if(NOT commands)
  message(FATAL_ERROR "no subcommands in ${TARE} --help")
endif()

roff(main_roff "${main}")
set(page ".TH TARE 1 \"\" \"tare ${VERSION}\" \"User Commands\"\n.SH NAME\ntare \\- time and memory of the timed region of C++ benchmarks, and honest comparisons\n")
string(APPEND page ".SH SYNOPSIS\n.B tare\n.I COMMAND\n[\n.I OPTIONS\n]\n.SH DESCRIPTION\n.nf\n${main_roff}.fi\n.SH COMMANDS\n")
set(bash_cases "")
set(zsh_cases "")
# The flags a help text lists, appended to the list `out`.
function(flags_of out text)
  string(REGEX MATCHALL "\n  (-[A-Za-z],)?--[a-z][a-z-]*" found "${text}")
  set(flags ${${out}})
  foreach(f IN LISTS found)
    string(REGEX REPLACE ".*(--[a-z][a-z-]*)" "\\1" f "${f}")
    list(APPEND flags ${f})
  endforeach()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

foreach(c IN LISTS commands)
  help_of(text ${c})
  roff(text_roff "${text}")
  string(APPEND page ".SS tare ${c}\n.nf\n${text_roff}.fi\n")
  set(flags "")
  flags_of(flags "${text}")
  # A command with commands of its own (tare history add): each one's page and flags, and the
  # second word completed from their names.
  set(inner "")
  if(text MATCHES "Subcommands:\n((  [a-z][^\n]*\n)+)")
    string(REGEX MATCHALL "\n  [a-z]+ " inner_names "\n${CMAKE_MATCH_1}")
    foreach(n IN LISTS inner_names)
      string(STRIP "${n}" n)
      list(APPEND inner ${n})
      help_of(inner_text ${c} ${n})
      roff(inner_roff "${inner_text}")
      string(APPEND page ".SS tare ${c} ${n}\n.nf\n${inner_roff}.fi\n")
      flags_of(flags "${inner_text}")
    endforeach()
  endif()
  list(REMOVE_DUPLICATES flags)
  list(JOIN flags " " flags)
  if(inner)
    list(JOIN inner " " inner)
    string(APPEND bash_cases "    ${c}) if [[ \$COMP_CWORD -eq 2 ]]; then COMPREPLY=(\$(compgen -W \"${inner}\" -- \"\$cur\")); return; fi\n      opts=\"${flags}\" ;;\n")
    string(APPEND zsh_cases "    ${c}) if (( CURRENT == 3 )); then compadd -- ${inner}; return; fi\n      flags=(${flags}) ;;\n")
  else()
    string(APPEND bash_cases "    ${c}) opts=\"${flags}\" ;;\n")
    string(APPEND zsh_cases "    ${c}) flags=(${flags}) ;;\n")
  endif()
endforeach()
string(APPEND page ".SH FILES\nThe full documentation is installed with the package, in\n.IR share/doc/tare/ :\ncli.md (every command and flag), reading-results.md, compare.md, history.md, accounting.md.\n")
file(WRITE ${OUT}/tare.1 "${page}")

list(JOIN commands " " words)
file(WRITE ${OUT}/tare.bash "# bash completion for tare (generated from its --help)
_tare() {
  local cur=\"\${COMP_WORDS[COMP_CWORD]}\" opts=\"\"
  if [[ \$COMP_CWORD -eq 1 ]]; then
    COMPREPLY=(\$(compgen -W \"${words} help --help --version\" -- \"\$cur\"))
    return
  fi
  case \"\${COMP_WORDS[1]}\" in
${bash_cases}    help) COMPREPLY=(\$(compgen -W \"${words}\" -- \"\$cur\")); return ;;
  esac
  if [[ \"\$cur\" == -* ]]; then
    COMPREPLY=(\$(compgen -W \"\$opts\" -- \"\$cur\"))
  else
    COMPREPLY=(\$(compgen -f -- \"\$cur\"))
  fi
}
complete -o filenames -F _tare tare
")
file(WRITE ${OUT}/_tare "#compdef tare
# zsh completion for tare (generated from its --help)
local -a flags
if (( CURRENT == 2 )); then
  compadd -- ${words} help
  return
fi
case \$words[2] in
${zsh_cases}  help) compadd -- ${words}; return ;;
esac
if [[ \$PREFIX == -* ]]; then
  compadd -- \$flags
else
  _files
fi
")
