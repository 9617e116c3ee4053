# batchsim's image, for sweeps on Kubernetes (README, "Sweeps on your cluster"). Build the jar first:
#   ./mvnw -B -q -DskipTests package && docker build -t REGISTRY/batchsim:0.1.0 .
# bin/check-docker runs this file's COPY, RUN and ENTRYPOINT against the built jar without a registry.
#
# eclipse-temurin:17-jre (Ubuntu; it has sh, sleep and tar, which `kubectl cp` needs), pinned by the digest of its
# multi-arch index. The digest is the one a public Dockerfile kept current by Dependabot pinned (found through code
# search on 2026-11-26; no registry is reachable from the machines that built this). Refresh it with
#   docker buildx imagetools inspect eclipse-temurin:17-jre     (or: crane digest eclipse-temurin:17-jre)
FROM eclipse-temurin:17-jre@sha256:13cc28a6cc72a38ce1f00c906be3580c1a3e604b8984d694f369a96742abc93b

COPY scenarios/target/batchsim.jar /opt/batchsim/batchsim.jar
COPY docker/batchsim /usr/local/bin/batchsim
RUN chmod 0755 /usr/local/bin/batchsim && batchsim --version
# A sweep's pods work here; their manifests mount the scenario's files below it.
WORKDIR /batchsim/work
ENTRYPOINT ["batchsim"]
