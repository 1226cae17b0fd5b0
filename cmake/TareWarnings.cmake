# Warnings and sanitizers for tare's own targets only (never for a consumer's).
function(tare_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                             -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast
                                             -Wcast-align -Woverloaded-virtual -Wnull-dereference)
    if(TARE_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
    if(TARE_SANITIZE)
      target_compile_options(${target} PRIVATE -fsanitize=${TARE_SANITIZE} -fno-omit-frame-pointer
                                               -fno-sanitize-recover=all)
      target_link_options(${target} PUBLIC -fsanitize=${TARE_SANITIZE})
    endif()
  endif()
endfunction()
