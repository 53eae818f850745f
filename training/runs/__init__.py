"""The run layer: the one place for the Python game loop between seated agents
(``seating``), seeding (``seeds``), agent specs (``specs``), ``--option`` and the flags
every tool shares (``options``), the ``--out`` settings guard and CSV sinks (``folder``),
the backends that run tasks serially, on a process pool or on Ray, with a progress
bar (``backends``, ``progress``), the game every task names (``tasks``) and how a tool
reports what stops it (``errors``)."""
