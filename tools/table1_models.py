"""Write the Table I job templates (``instances/asrpt/table1_models.json``) from the analytic model of
``optsched/placement/templates.py`` (tests/placement/test_templates.py keeps the file equal to it).

    python tools/table1_models.py > instances/asrpt/table1_models.json
"""

import json

from optsched.placement.templates import table

if __name__ == "__main__":
    print(json.dumps(table(), indent=1))
