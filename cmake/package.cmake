# SPDX-License-Identifier: Apache-2.0
# The Debian package: `cpack -G DEB` in a build directory writes
# gpulint_<version>_<arch>.deb with what `cmake --install` installs under /usr, and its
# library dependencies computed by dpkg-shlibdeps from the binary (SHLIBDEPS).
# tests/deb.sh builds it and installs it with apt-get into a clean Debian 12 root.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpulint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "static linter for GPU container stacks")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "gpulint finds the GPU container mistakes other linters do not see: CUDA newer than\n\
the target driver, framework/CUDA mismatches, drivers baked into images, devel images\n\
shipped, latest tags, datasets and checkpoints that bypass bind mounts, GPU images\n\
launched without a GPU. It reads Dockerfiles, image archives and launch specs (shell,\n\
Makefiles, Markdown, CI YAML, compose, Kubernetes, apptainer).")
set(CPACK_PACKAGE_CONTACT "gpulint maintainers <gpulint@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/gpulint/gpulint")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # gpulint_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libcurl is loaded with dlopen (parsers/registry/registry_curl.h): shlibdeps cannot see it
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcurl4 | libcurl3-gnutls")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
# Only the program's own files: not the test or fuzz targets of the build.
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};gpulint;ALL;/")
include(CPack)
