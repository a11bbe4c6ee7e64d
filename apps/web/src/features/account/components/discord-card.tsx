import Button from '@mui/material/Button';
import CardActions from '@mui/material/CardActions';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { SectionCard } from '../../../components/section-card.tsx';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { updateDiscord } from '../api/account.ts';

export function DiscordCard({ onChanged }: { onChanged: () => void }) {
  const discordId = useAuthStore((state) => state.user?.discordId ?? null);
  const setUser = useAuthStore((state) => state.setUser);
  const [value, setValue] = useState(discordId ?? '');
  const [isSaving, setIsSaving] = useState(false);
  useEffect(() => setValue(discordId ?? ''), [discordId]);

  const save = async (next: string | null) => {
    setIsSaving(true);
    try {
      const user = await updateDiscord(next);
      const current = useAuthStore.getState().user;
      if (user) setUser(user);
      else if (current) setUser({ ...current, discordId: next });
      notifySuccess(next ? 'Identifiant Discord enregistré.' : 'Identifiant Discord retiré.');
      onChanged();
    } catch {
      // The API client has shown the message.
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <SectionCard
      title="Discord"
      subheader="Votre identifiant Discord nous permet de vous reconnaître sur notre serveur."
    >
      <TextField
        name="discordId"
        label="Identifiant Discord"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        placeholder="exemple#1234 ou 123456789012345678"
        autoComplete="off"
      />
      <CardActions sx={{ px: 0 }}>
        <Button
          variant="contained"
          disabled={isSaving || !value.trim() || value.trim() === discordId}
          onClick={() => save(value.trim())}
        >
          Enregistrer
        </Button>
        <Button color="inherit" disabled={isSaving || !discordId} onClick={() => save(null)}>
          Retirer
        </Button>
      </CardActions>
    </SectionCard>
  );
}
