import { BOT_STATUS_LABELS, BOT_STATUSES } from '@bot/contracts';
import AddIcon from '@mui/icons-material/Add';
import CenterFocusStrongIcon from '@mui/icons-material/CenterFocusStrong';
import RemoveIcon from '@mui/icons-material/Remove';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import type { Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { STATUS_COLORS } from '../../../components/status-chip.tsx';

const overlay = {
  position: 'absolute',
  bgcolor: 'rgba(15, 20, 25, 0.88)',
  border: 1,
  borderColor: 'divider',
  borderRadius: 1,
} as const;

/** Zoom in, zoom out and "see everything", for people without a wheel or a touch screen. */
export function MapControls({
  onZoomIn,
  onZoomOut,
  onFit,
}: {
  onZoomIn: () => void;
  onZoomOut: () => void;
  onFit: () => void;
}) {
  const buttons = [
    { label: 'Zoomer', icon: <AddIcon />, onClick: onZoomIn },
    { label: 'Dézoomer', icon: <RemoveIcon />, onClick: onZoomOut },
    { label: 'Tout voir', icon: <CenterFocusStrongIcon />, onClick: onFit },
  ];
  return (
    <Box sx={{ ...overlay, top: 8, right: 8, display: 'flex', flexDirection: 'column' }}>
      {buttons.map((button) => (
        <Tooltip key={button.label} title={button.label} placement="left">
          <IconButton aria-label={button.label} onClick={button.onClick} size="small">
            {button.icon}
          </IconButton>
        </Tooltip>
      ))}
    </Box>
  );
}

/**
 * What each colour means; a cluster takes the most urgent status inside it. Under the map, never over
 * it; folded on phones, where it would push the map's caption far down (a native `<details>`:
 * keyboard and screen readers know it).
 */
export function MapLegend({ id }: { id: string }) {
  const isWide = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'));
  return (
    <Box
      component="details"
      id={id}
      open={isWide}
      data-testid="map-legend"
      sx={{
        bgcolor: 'rgba(15, 20, 25, 0.88)',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        px: 1.5,
        py: 1,
        fontSize: 12,
        '& summary': { cursor: 'pointer' },
      }}
    >
      <Box component="summary" sx={{ fontWeight: 600 }}>
        Légende
      </Box>
      <Box
        component="ul"
        sx={{
          m: 0,
          mt: 0.5,
          p: 0,
          listStyle: 'none',
          display: 'flex',
          flexWrap: 'wrap',
          columnGap: 2,
          rowGap: 0.5,
        }}
      >
        {BOT_STATUSES.map((status) => (
          <Box component="li" key={status} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
            <Box
              component="span"
              aria-hidden
              sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: STATUS_COLORS[status] }}
            />
            {BOT_STATUS_LABELS[status]}
          </Box>
        ))}
      </Box>
      <Box component="p" sx={{ m: 0, mt: 0.5, color: 'text.secondary' }}>
        Un groupe prend la couleur du statut le plus urgent.
      </Box>
    </Box>
  );
}
