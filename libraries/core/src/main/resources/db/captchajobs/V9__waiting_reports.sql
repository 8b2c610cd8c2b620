-- Reports still waiting to be sent, for the sweep that makes sure each has a job (additive only).
-- A node that dies between recording a report and creating its job leaves a PENDING row that no
-- job would ever send; the sweep finds such rows through this small partial index.
CREATE INDEX captchajobs_solve_report_pending ON solve (reported_at) WHERE report_delivery = 'PENDING';
