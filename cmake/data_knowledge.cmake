# SPDX-License-Identifier: Apache-2.0
# The CUDA knowledge base compiled into the binary.
# tools/kb_gen loads knowledge/cuda_facts.yaml with the run-time loader (which reads YAML
# with parsers/yaml/yaml_tree.c, hence the core files that uses) and writes
# static const tables to generated/kb_builtin.c (which defines gl_kb_builtin()); that file
# joins the core library through GPULINT_GENERATED_SOURCES. Included from the top-level
# CMakeLists.txt, so it shares its scope.
set(GPULINT_KB_FACTS ${CMAKE_SOURCE_DIR}/knowledge/cuda_facts.yaml)
set(GPULINT_KB_BUILTIN ${CMAKE_BINARY_DIR}/generated/kb_builtin.c)
# kb_gen links the loader and what it stands on (the core, the YAML reader) as a static
# library, so that only the objects the loader needs are pulled in (not, say, the
# registries, which are generated for the main library).
file(GLOB GPULINT_KB_LOADER_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/knowledge/kb_*.c ${CMAKE_SOURCE_DIR}/knowledge/gpu_arch.c
     ${CMAKE_SOURCE_DIR}/parsers/yaml/*.c
     ${CMAKE_SOURCE_DIR}/linter/core/*.c ${CMAKE_SOURCE_DIR}/linter/core/ref/*.c)
add_library(gpulint_kb_loader STATIC ${GPULINT_KB_LOADER_SOURCES})
target_include_directories(gpulint_kb_loader PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(gpulint_kb_loader PUBLIC PkgConfig::YAML PkgConfig::PCRE2 m)

add_executable(gpulint_kb_gen ${CMAKE_SOURCE_DIR}/tools/kb_gen.c)
target_link_libraries(gpulint_kb_gen PRIVATE gpulint_kb_loader)

add_custom_command(
  OUTPUT ${GPULINT_KB_BUILTIN}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated
  COMMAND gpulint_kb_gen ${GPULINT_KB_FACTS} ${GPULINT_KB_BUILTIN}.tmp
  COMMAND ${CMAKE_COMMAND} -E rename ${GPULINT_KB_BUILTIN}.tmp ${GPULINT_KB_BUILTIN}
  DEPENDS gpulint_kb_gen ${GPULINT_KB_FACTS}
  COMMENT "Compiling the CUDA knowledge base from knowledge/cuda_facts.yaml"
  VERBATIM)

list(APPEND GPULINT_GENERATED_SOURCES ${GPULINT_KB_BUILTIN})
