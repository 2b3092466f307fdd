# SPDX-License-Identifier: Apache-2.0
# The CUDA knowledge base compiled into the binary.
# tools/kb_gen loads knowledge/cuda_facts.yaml with the run-time loader (which reads YAML
# with parsers/yaml/yaml_tree.c, hence the core files that uses) and writes
# static const tables to generated/kb_builtin.c (which defines gl_kb_builtin()); that file
# joins the core library through GPULINT_GENERATED_SOURCES. Included from the top-level
# CMakeLists.txt, so it shares its scope.
set(GPULINT_KB_FACTS ${CMAKE_SOURCE_DIR}/knowledge/cuda_facts.yaml)
set(GPULINT_KB_BUILTIN ${CMAKE_BINARY_DIR}/generated/kb_builtin.c)
set(GPULINT_KB_LOADER_SOURCES
    ${CMAKE_SOURCE_DIR}/knowledge/kb_load.c
    ${CMAKE_SOURCE_DIR}/knowledge/kb_decode.c
    ${CMAKE_SOURCE_DIR}/knowledge/kb_yaml.c
    ${CMAKE_SOURCE_DIR}/knowledge/kb_version.c
    ${CMAKE_SOURCE_DIR}/knowledge/kb_query.c
    ${CMAKE_SOURCE_DIR}/parsers/yaml/yaml_tree.c
    ${CMAKE_SOURCE_DIR}/linter/core/hashmap.c
    ${CMAKE_SOURCE_DIR}/linter/core/limits.c
    ${CMAKE_SOURCE_DIR}/linter/core/srcmap.c
    ${CMAKE_SOURCE_DIR}/linter/core/suppress.c
    ${CMAKE_SOURCE_DIR}/linter/core/text.c
    ${CMAKE_SOURCE_DIR}/linter/core/util.c)

add_executable(gpulint_kb_gen ${CMAKE_SOURCE_DIR}/tools/kb_gen.c ${GPULINT_KB_LOADER_SOURCES})
target_include_directories(gpulint_kb_gen PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(gpulint_kb_gen PRIVATE PkgConfig::YAML)

add_custom_command(
  OUTPUT ${GPULINT_KB_BUILTIN}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated
  COMMAND gpulint_kb_gen ${GPULINT_KB_FACTS} ${GPULINT_KB_BUILTIN}.tmp
  COMMAND ${CMAKE_COMMAND} -E rename ${GPULINT_KB_BUILTIN}.tmp ${GPULINT_KB_BUILTIN}
  DEPENDS gpulint_kb_gen ${GPULINT_KB_FACTS}
  COMMENT "Compiling the CUDA knowledge base from knowledge/cuda_facts.yaml"
  VERBATIM)

list(APPEND GPULINT_GENERATED_SOURCES ${GPULINT_KB_BUILTIN})
