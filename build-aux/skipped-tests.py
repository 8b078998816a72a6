#!/usr/bin/env python3
"""Print one line per skipped test, "name: reason", from pytest's JUnit XML reports."""
import sys
import xml.etree.ElementTree as ET

for path in sys.argv[1:]:
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError) as error:
        print(f"{path}: no report ({error})")
        continue
    for case in tree.iter("testcase"):
        skip = case.find("skipped")
        if skip is not None:
            name = f"{case.get('classname', '')}::{case.get('name', '')}"
            print(f"{name}: {skip.get('message', '').strip()}")
