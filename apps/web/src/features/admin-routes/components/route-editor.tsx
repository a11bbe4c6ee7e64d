import {
  ROUTE_ACTION_LABELS,
  ROUTE_ACTIONS,
  ROUTE_KIND_LABELS,
  ROUTE_KINDS,
  ROUTE_STATUS_LABELS,
  ROUTE_STATUSES,
  type Route,
  type RouteAction,
  type RouteKind,
  type RouteStatus,
  type RouteStep,
  routeInput,
} from '@bot/contracts';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { notifySuccess } from '../../../lib/notify.ts';
import { createRoute, routeWorldQuery, updateRoute } from '../api/routes.ts';
import { WorldGrid } from './world-grid.tsx';

const DEFAULT_ACTION: Record<RouteKind, RouteAction> = { gathering: 'gather', treasure: 'dig' };

/** Creates or edits a route: name, kind, status, and steps picked on the grid with an action each. */
export function RouteEditor({
  route,
  open,
  onClose,
  onSaved,
}: {
  route: Route | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const world = useQuery({ ...routeWorldQuery, enabled: open });
  const [name, setName] = useState('');
  const [kind, setKind] = useState<RouteKind>('gathering');
  const [status, setStatus] = useState<RouteStatus>('draft');
  const [action, setAction] = useState<RouteAction>('gather');
  const [steps, setSteps] = useState<RouteStep[]>([]);
  const [error, setError] = useState<string>();
  const [isSaving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(route?.name ?? '');
    setKind(route?.kind ?? 'gathering');
    setStatus(route?.status ?? 'draft');
    setSteps(route?.steps ?? []);
    setAction(DEFAULT_ACTION[route?.kind ?? 'gathering']);
    setError(undefined);
  }, [open, route]);

  const move = (index: number, delta: number) =>
    setSteps((current) => {
      const next = [...current];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + delta, 0, item);
      return next;
    });

  const save = async () => {
    const parsed = routeInput.safeParse({
      name,
      kind,
      status,
      steps: steps.map(({ mapId, action: a }) => ({ mapId, action: a })),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setSaving(true);
    try {
      if (route) await updateRoute(route.id, parsed.data);
      else await createRoute(parsed.data);
      notifySuccess(
        status === 'published' ? 'Itinéraire publié : les bots y ont accès.' : 'Itinéraire enregistré.',
      );
      onSaved();
    } catch {
      // shown by the API client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xl">
      <DialogTitle>{route ? `Itinéraire « ${route.name} »` : 'Nouvel itinéraire'}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <TextField
            fullWidth={false}
            name="name"
            label="Nom"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
            }}
            error={Boolean(error)}
            helperText={error}
            sx={{ minWidth: 260 }}
          />
          <TextField
            fullWidth={false}
            select
            name="kind"
            label="Type"
            value={kind}
            onChange={(event) => {
              const next = event.target.value as RouteKind;
              setKind(next);
              setAction(DEFAULT_ACTION[next]);
            }}
            sx={{ minWidth: 180 }}
          >
            {ROUTE_KINDS.map((value) => (
              <MenuItem key={value} value={value}>
                {ROUTE_KIND_LABELS[value]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            fullWidth={false}
            select
            name="status"
            label="Statut"
            value={status}
            onChange={(event) => setStatus(event.target.value as RouteStatus)}
            sx={{ minWidth: 160 }}
          >
            {ROUTE_STATUSES.map((value) => (
              <MenuItem key={value} value={value}>
                {ROUTE_STATUS_LABELS[value]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            fullWidth={false}
            select
            name="action"
            label="Action des prochaines étapes"
            value={action}
            onChange={(event) => setAction(event.target.value as RouteAction)}
            sx={{ minWidth: 240 }}
          >
            {ROUTE_ACTIONS.map((value) => (
              <MenuItem key={value} value={value}>
                {ROUTE_ACTION_LABELS[value]}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 1, alignItems: 'flex-start' }}>
          <Box sx={{ flex: '0 1 auto', maxWidth: '100%' }}>
            {world.data ? (
              <WorldGrid
                world={world.data}
                steps={steps}
                onPick={(cell) => setSteps((current) => [...current, { ...cell, action }])}
              />
            ) : (
              <Typography color="text.secondary">Chargement de la carte…</Typography>
            )}
          </Box>
          <Box sx={{ flex: '1 1 280px', minWidth: 260 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography variant="subtitle1">Étapes ({steps.length})</Typography>
              <Button size="small" color="error" disabled={steps.length === 0} onClick={() => setSteps([])}>
                Tout effacer
              </Button>
            </Box>
            {steps.length === 0 ? (
              <Typography color="text.secondary">Cliquez sur la grille pour ajouter des étapes.</Typography>
            ) : (
              <List dense sx={{ maxHeight: 560, overflow: 'auto' }} aria-label="Étapes">
                {steps.map((step, index) => (
                  <ListItem
                    // biome-ignore lint/suspicious/noArrayIndexKey: a step may repeat a map; its place is its identity
                    key={index}
                    disableGutters
                    secondaryAction={
                      <>
                        <IconButton
                          size="small"
                          aria-label="Monter"
                          disabled={index === 0}
                          onClick={() => move(index, -1)}
                        >
                          <ArrowUpwardIcon fontSize="small" />
                        </IconButton>
                        <IconButton
                          size="small"
                          aria-label="Descendre"
                          disabled={index === steps.length - 1}
                          onClick={() => move(index, 1)}
                        >
                          <ArrowDownwardIcon fontSize="small" />
                        </IconButton>
                        <IconButton
                          size="small"
                          aria-label={`Retirer l'étape ${index + 1}`}
                          onClick={() => setSteps((current) => current.filter((_, i) => i !== index))}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </>
                    }
                  >
                    <ListItemText
                      primary={`${index + 1}. [${step.x}, ${step.y}]`}
                      secondary={ROUTE_ACTION_LABELS[step.action]}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button variant="contained" onClick={save} disabled={isSaving}>
          Enregistrer
        </Button>
      </DialogActions>
    </Dialog>
  );
}
