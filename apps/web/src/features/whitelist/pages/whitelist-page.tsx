import { countOf, whitelistAddInput } from '@bot/contracts';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { dateMedium as dateFormat } from '../../../lib/dates.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import { addToWhitelist, myWhitelistQuery, removeFromWhitelist } from '../api/whitelist.ts';

/** /account/whitlist: the game accounts the customer's bot may drive, within their slots. */
export default function WhitelistPage() {
  const queryClient = useQueryClient();
  const whitelist = useQuery(myWhitelistQuery);
  const form = useForm<{ name: string }>({
    resolver: schemaResolver(whitelistAddInput),
    defaultValues: { name: '' },
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: myWhitelistQuery.queryKey });

  const add = useMutation({
    mutationFn: (value: string) => addToWhitelist(value),
    onSuccess: async (entry) => {
      form.reset({ name: '' });
      notifySuccess(`« ${entry.name} » ajouté à votre liste blanche.`);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => removeFromWhitelist(id),
    onSuccess: refresh,
    onSettled: () => setRemoving(null),
  });
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);

  const slots = whitelist.data?.slots;
  const isFull = slots ? slots.total !== null && slots.used >= slots.total : false;

  return (
    <>
      <PageHeader title="Liste blanche" subtitle="Les comptes de jeu que votre bot peut piloter." />
      {slots ? (
        <Card variant="outlined" sx={{ mb: 3 }}>
          <CardContent>
            <Typography data-testid="whitelist-slots">
              {slots.total === null
                ? `${countOf(slots.used, 'compte', 'comptes')} — sans limite (administrateur)`
                : `${slots.used} / ${countOf(slots.total, 'place utilisée', 'places utilisées')}`}
            </Typography>
            {slots.total ? (
              <LinearProgress
                variant="determinate"
                value={Math.min(100, (slots.used / slots.total) * 100)}
                sx={{ mt: 1, height: 8, borderRadius: 1 }}
              />
            ) : null}
            {slots.total === 0 ? (
              <Alert severity="info" sx={{ mt: 2 }}>
                Aucune place : achetez une offre dans la{' '}
                <RouterLink to="/account/marketplace" style={{ color: 'inherit' }}>
                  boutique
                </RouterLink>{' '}
                pour ajouter des comptes.
              </Alert>
            ) : null}
          </CardContent>
        </Card>
      ) : null}

      <Stack
        component="form"
        noValidate
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mb: 3, alignItems: { sm: 'center' }, maxWidth: 560 }}
        onSubmit={form.handleSubmit((values) => add.mutate(values.name))}
      >
        <fieldset disabled={isFull} style={{ border: 0, margin: 0, padding: 0, flexGrow: 1 }}>
          <FormTextField form={form} name="name" label="Nom du compte de jeu" autoComplete="off" />
        </fieldset>
        <Button type="submit" variant="contained" disabled={isFull || add.isPending}>
          Ajouter
        </Button>
      </Stack>
      {/* A disabled field says why, and where to get more places. */}
      {isFull && slots?.total ? (
        <Alert severity="info" sx={{ mb: 3, maxWidth: 560 }} data-testid="whitelist-full">
          Votre liste est pleine ({countOf(slots.total, 'place', 'places')}) : retirez un compte pour en
          ajouter un autre, ou passez à une{' '}
          <RouterLink to="/account/marketplace" style={{ color: 'inherit' }}>
            offre avec plus de places
          </RouterLink>
          .
        </Alert>
      ) : null}

      {whitelist.data && whitelist.data.data.length === 0 ? (
        <Typography color="text.secondary">Aucun compte dans votre liste blanche.</Typography>
      ) : null}
      <List aria-label="Comptes de la liste blanche">
        {whitelist.data?.data.map((entry) => (
          <ListItem
            key={entry.id}
            divider
            data-testid="whitelist-entry"
            secondaryAction={
              <IconButton
                edge="end"
                aria-label={`Retirer ${entry.name}`}
                disabled={remove.isPending}
                onClick={() => setRemoving(entry)}
              >
                <DeleteIcon />
              </IconButton>
            }
          >
            <ListItemText
              primary={entry.name}
              secondary={`Ajouté le ${dateFormat.format(new Date(entry.createdAt))}`}
            />
          </ListItem>
        ))}
      </List>
      <ConfirmDialog
        open={removing !== null}
        title={`Retirer ${removing?.name ?? ''} ?`}
        confirmLabel="Retirer"
        isBusy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.id)}
        onCancel={() => setRemoving(null)}
      >
        Votre bot ne pourra plus piloter ce compte de jeu : il est retiré de ses sessions en cours. Sa place
        se libère pour un autre compte.
      </ConfirmDialog>
    </>
  );
}
