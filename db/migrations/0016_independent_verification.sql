-- Verified means verified (docs/decisions/046): peer and lineup confirmations count only after
-- the session ended, from established artists, more than one voice, rings capped. The rules are
-- TypeScript (features/verification), so the migration only asks the credential job to look at
-- every session that any confirmation or flag makes a candidate: the job writes the session's
-- level on its row (is_verified, verification_method, and by trigger the Verified Sessions
-- counter) and signs, re-signs or revokes its credential.
INSERT INTO jobs (queue, key)
SELECT 'credentials.refresh-session', s.id::text FROM music_sessions s
WHERE s.is_verified
  OR EXISTS (SELECT 1 FROM peer_verifications p WHERE p.session_id = s.id)
  OR EXISTS (SELECT 1 FROM lineup_confirmations l WHERE l.session_id = s.id)
ON CONFLICT (queue, key) WHERE failed_at IS NULL DO NOTHING;--> statement-breakpoint
SELECT pg_notify('jobs', 'credentials.refresh-session');
