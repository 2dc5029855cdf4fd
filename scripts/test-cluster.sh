#!/usr/bin/env bash
# The integration suite against a 3-master, 3-replica Redis Cluster, then the failover test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prepare.sh
nodes=$(node dist/scripts/redis-cluster.js start)
trap 'node dist/scripts/redis-cluster.js stop' EXIT
echo "Redis Cluster seed nodes: $nodes"
status=0
REDIS_CLUSTER_NODES=$nodes TEST_REDIS_KEY_PREFIX=lbcluster node_modules/.bin/mocha "$@" || status=$?
REDIS_CLUSTER_NODES=$nodes TEST_REDIS_KEY_PREFIX=lbcluster node_modules/.bin/mocha --config .mocharc.cluster.json || status=$?
exit $status
