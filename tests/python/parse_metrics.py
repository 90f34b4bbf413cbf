"""Reads a cardroom /metrics exposition twice, as Prometheus's own Python client parses each
format: the Prometheus text format 0.0.4 (argv[1]) and OpenMetrics 1.0 (argv[2], with the strict
OpenMetrics parser, which refuses any line the format does not allow). Prints, per format, each
family's type and sample count as one JSON object."""

import json
import sys

from prometheus_client.openmetrics.parser import (
    text_string_to_metric_families as openmetrics_families,
)
from prometheus_client.parser import text_string_to_metric_families as text_families


def read(parse, path):
    with open(path, encoding="utf-8") as exposition:
        return {
            family.name: {"type": family.type, "samples": len(family.samples)}
            for family in parse(exposition.read())
        }


print(
    json.dumps(
        {
            "text": read(text_families, sys.argv[1]),
            "openmetrics": read(openmetrics_families, sys.argv[2]),
        }
    )
)
