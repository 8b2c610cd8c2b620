-- The console's solves table filtered by type, newest first by keyset (created_at DESC, id): one
-- index range scan, whether the type has millions of solves or none (issue 35). Without it a type
-- filter walked the whole creation index. The key-prefix filter keeps captchajobs_solve_key_prefix
-- (V10): ConsoleQueries reads a prefix with few matches through it and sorts them.
CREATE INDEX captchajobs_solve_type_created ON solve (type, created_at DESC, id);
