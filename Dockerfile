# SPDX-License-Identifier: Apache-2.0
# gpulint's own image: built in a full Debian 12 stage, shipped as debian:12-slim with the
# binary, its man page and only the runtime libraries it links (libarchive is linked
# statically: see CMakeLists.txt). gpulint lints this file clean (tests/dogfood.sh).
#
#   docker build -t gpulint .
#   docker run --rm -v "$PWD:/src:ro" gpulint --format sarif .
FROM debian:12-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      gcc libc6-dev make cmake pkg-config \
      libarchive-dev libjson-c-dev libyaml-dev libpcre2-dev libzstd-dev libisal-dev \
      libcurl4-openssl-dev \
      zlib1g-dev libbz2-dev liblzma-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /usr/src/gpulint
COPY . .
RUN cmake -S . -B /tmp/build -DCMAKE_BUILD_TYPE=Release -DGPULINT_TESTS=OFF \
 && cmake --build /tmp/build -j"$(nproc)" --target gpulint \
 && cmake --install /tmp/build --prefix /opt/gpulint --strip

FROM debian:12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      zlib1g libbz2-1.0 liblzma5 libjson-c5 libyaml-0-2 libpcre2-8-0 libzstd1 libisal2 \
      libcurl4 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/gpulint/bin/gpulint /usr/local/bin/gpulint
COPY --from=build /opt/gpulint/share/man/man1/gpulint.1 /usr/local/share/man/man1/gpulint.1
USER nobody
WORKDIR /src
ENTRYPOINT ["gpulint"]
