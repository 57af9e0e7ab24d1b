# TODO(6.5) breadth-first written as depth-first: the two loop orders are
# the same loop, so the student never sees the difference.
lab_variant(SOLUTION streams_overlap.cu
  FIND [[
        t.chunk = step % chunks;
        t.stage = (lab6_stage)(step / chunks);]]
  REPLACE [[
        t.chunk = step / LAB6_STAGES;
        t.stage = (lab6_stage)(step % LAB6_STAGES);]]
  FAILS cpu_issue_orders
    MESSAGE [[TODO\(6\.5\) lab6_issue_step\(breadth-first]])
