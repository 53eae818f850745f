"""The ``transit-gym`` command: one front door to every tool (``transit-gym --help``).

Importing this package imports nothing else of the project: the table of commands is data,
and a tool's module is imported only when its command runs.
"""
