/* SPDX-License-Identifier: Apache-2.0 */
/* docker_official.c: Docker Hub's official image names (see docker_official.h). */
#include "linter/core/ref/docker_official.h"

#include <stdlib.h>
#include <string.h>

/* Every file ever added under library/ in github.com/docker-library/official-images
 * (`git log --diff-filter=AD --name-only -- library/`, at 37079fb336f5, 2026-08-21):
 * 186 names, sorted by bytes for bsearch. */
static const char *const names[] = {
    "adminer", "adoptopenjdk", "aerospike", "almalinux", "alpine", "alt", "amazoncorretto",
    "amazonlinux", "api-firewall", "arangodb", "archlinux", "azul-zulu", "backdrop", "bash",
    "bonita", "buildpack-deps", "busybox", "caddy", "cassandra", "celery", "centos",
    "chronograf", "cirros", "clearlinux", "clefos", "clickhouse", "clojure", "composer",
    "consul", "convertigo", "couchbase", "couchdb", "couchdb-nouveau", "crate", "crux", "dart",
    "debian", "django", "docker", "docker-dev", "drupal", "eclipse-mosquitto",
    "eclipse-temurin", "eggdrop", "elasticsearch", "elixir", "emqx", "erlang", "espocrm",
    "euleros", "express-gateway", "fedora", "flink", "fluentd", "friendica", "fsharp",
    "gazebo", "gcc", "geonetwork", "ghost", "glassfish", "golang", "gradle", "groovy",
    "haproxy", "haskell", "haxe", "hello-seattle", "hello-world", "hipache", "hitch",
    "hola-mundo", "httpd", "hylang", "ibm-semeru-runtimes", "ibmjava", "influxdb", "iojs",
    "irssi", "java", "jenkins", "jetty", "jobber", "joomla", "jruby", "julia",
    "kaazing-gateway", "kapacitor", "kibana", "known", "kong", "krakend", "lightstreamer",
    "lightstreamer-server", "liquibase", "logstash", "mageia", "mariadb", "matomo", "maven",
    "mediawiki", "memcached", "mongo", "mongo-express", "monica", "mono", "mosquitto", "mysql",
    "nats", "nats-streaming", "neo4j", "neurodebian", "nextcloud", "nginx", "nim", "node",
    "notary", "notary-server", "notary-signer", "nuxeo", "odoo", "open-liberty", "openjdk",
    "opensuse", "oraclelinux", "orientdb", "owncloud", "percona", "perl", "photon", "php",
    "php-zendserver", "phpmyadmin", "piwik", "plone", "postfixadmin", "postgres", "pypy",
    "python", "r-base", "rabbitmq", "rails", "rakudo-star", "rapidoid", "redis", "redmine",
    "registry", "rethinkdb", "rocket.chat", "rockylinux", "ros", "ruby", "rust", "sapmachine",
    "satosa", "sentry", "silverpeas", "sl", "solr", "sonarqube", "sourcemage", "spark",
    "spiped", "storm", "swarm", "swift", "swipl", "teamspeak", "telegraf", "thrift", "tomcat",
    "tomee", "traefik", "ubuntu", "ubuntu-debootstrap", "ubuntu-upstart", "unit", "varnish",
    "vault", "websphere-liberty", "wordpress", "xwiki", "yourls", "zend-php", "znc",
    "zookeeper",
};

struct key {
    const char *s;
    size_t n;
};

static int cmp(const void *k, const void *e)
{
    const struct key *key = k;
    const char *name = *(const char *const *)e;
    int r = strncmp(key->s, name, key->n);
    return r ? r : (name[key->n] ? -1 : 0);
}

bool gl_docker_official(const char *name, size_t n)
{
    struct key k = {name, n};
    return n && memchr(name, '\0', n) == NULL &&
           bsearch(&k, names, sizeof names / sizeof names[0], sizeof names[0], cmp) != NULL;
}
