-- Device profiles gained the child lock's offline behaviour (Vicki 0x35). Profiles saved before
-- keep the valve's factory setting: the lock is released while the valve is offline.
UPDATE "device_profiles" SET "config" = "config" || '{"childLockKeptOffline": false}'::jsonb WHERE NOT ("config" ? 'childLockKeptOffline');
