import { countOf, formatPrice, type Package, type VoucherPreview, voucherPreviewInput } from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { PageHeader } from '../../../components/page-header.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { dateLong as dateFormat } from '../../../lib/dates.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { schemaResolver } from '../../../lib/schema-resolver.ts';
import { meKeys } from '../../auth/index.ts';
import {
  createOrder,
  ordersQuery,
  packagesQuery,
  previewVoucher,
  reloadPermissions,
  subscriptionsQuery,
} from '../api/marketplace.ts';
import { OfferFeatures } from '../components/offer-features.tsx';
import { PendingOrders } from '../components/pending-orders.tsx';
import { SandboxCheckout } from '../components/sandbox-checkout.tsx';
import { useCancelledCheckout } from '../hooks/use-cancelled-checkout.ts';

const voucherFieldSchema = z.object({ voucherCode: voucherPreviewInput.shape.code });

/** /account/marketplace: packages on sale, running subscriptions, voucher preview and checkout. */
export default function MarketplacePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const checkoutId = searchParams.get('checkout');
  useCancelledCheckout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const packages = useQuery(packagesQuery);
  const subscriptions = useQuery(subscriptionsQuery);
  const voucherForm = useForm<{ voucherCode: string }>({
    resolver: schemaResolver(voucherFieldSchema),
    defaultValues: { voucherCode: '' },
  });
  const typedCode = voucherForm.watch('voucherCode');
  /** The code the prices below were computed with; typing another one sets them back. */
  const [preview, setPreview] = useState<VoucherPreview | null>(null);

  const check = useMutation({
    mutationFn: (code: string) => previewVoucher({ code }),
    onSuccess: setPreview,
    onError: (error) => {
      setPreview(null);
      voucherForm.setError('voucherCode', {
        message: isApiError(error) ? error.message : 'Code promo invalide.',
      });
    },
  });

  // A double click must not start two checkouts (the second would replace the first).
  const isBuying = useRef(false);
  const buy = useMutation({
    mutationFn: (pkg: Package) =>
      createOrder({ packageId: pkg.id, ...(preview ? { voucherCode: preview.code } : {}) }),
    onSuccess: async (order) => {
      await queryClient.invalidateQueries({ queryKey: meKeys.all });
      if (order.status === 'paid') {
        await reloadPermissions();
        notifySuccess('Offre activée, merci !');
        setPreview(null);
        voucherForm.reset();
        return;
      }
      if (!order.checkoutUrl) return notifyError('Le paiement n’a pas pu démarrer.');
      if (/^https?:\/\//.test(order.checkoutUrl)) window.location.assign(order.checkoutUrl);
      else void navigate(order.checkoutUrl);
    },
  });

  // Back from a checkout left pending: its code is offered again (the use is still the customer's).
  const orders = useQuery(ordersQuery);
  const pendingCode = orders.data?.find((order) => order.status === 'pending')?.voucherCode ?? null;
  const hasRestoredCode = useRef(false);
  useEffect(() => {
    if (!pendingCode || hasRestoredCode.current || voucherForm.getValues('voucherCode')) return;
    hasRestoredCode.current = true;
    voucherForm.setValue('voucherCode', pendingCode);
    check.mutate(pendingCode);
  }, [pendingCode, voucherForm, check]);

  const voucherError = voucherForm.formState.errors.voucherCode?.message;
  const priceOf = (pkg: Package) => preview?.prices.find((price) => price.packageId === pkg.id);
  const closeCheckout = () => {
    const next = new URLSearchParams(searchParams);
    next.delete('checkout');
    setSearchParams(next, { replace: true });
  };

  return (
    <>
      <PageHeader title="Boutique" subtitle="Choisissez l’offre qui donne accès au bot." />
      {checkoutId ? <SandboxCheckout orderId={checkoutId} onClose={closeCheckout} /> : null}
      <PendingOrders hiddenOrderId={checkoutId} />

      {subscriptions.data && subscriptions.data.length > 0 ? (
        <Card variant="outlined" sx={{ mb: 3 }}>
          <CardContent>
            <Typography variant="h6" sx={{ mb: 1 }}>
              Mes abonnements en cours
            </Typography>
            <Stack spacing={1} data-testid="subscriptions">
              {subscriptions.data.map((subscription) => (
                <Typography key={subscription.packageId}>
                  <strong>{subscription.packageName}</strong> — jusqu’au{' '}
                  {dateFormat.format(new Date(subscription.endsAt))}
                  {subscription.whitelistSlots > 0
                    ? ` · ${countOf(subscription.whitelistSlots, 'compte de jeu', 'comptes de jeu')}`
                    : ''}
                </Typography>
              ))}
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Racheter une offre en cours prolonge sa durée à partir de sa date de fin.
            </Typography>
          </CardContent>
        </Card>
      ) : null}

      <Stack
        component="form"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mb: 3, alignItems: { sm: 'flex-start' } }}
        onSubmit={voucherForm.handleSubmit(({ voucherCode }) => check.mutate(voucherCode))}
        noValidate
      >
        <TextField
          {...voucherForm.register('voucherCode', { onChange: () => setPreview(null) })}
          label="Code promo"
          size="small"
          // Filled by the app (the code of a pending checkout): the label must move up as when typed.
          error={voucherError !== undefined}
          helperText={
            voucherError ??
            (preview
              ? `Code ${preview.code} appliqué${preview.kind === 'gift' ? ' : offre offerte' : ''}.`
              : ' ')
          }
          slotProps={{
            htmlInput: { maxLength: 64, autoComplete: 'off' },
            // Filled by the app (a pending checkout's code): the label moves up as when typed.
            inputLabel: { shrink: typedCode ? true : undefined },
          }}
        />
        <Button type="submit" variant="outlined" disabled={!typedCode.trim() || check.isPending}>
          Appliquer
        </Button>
      </Stack>

      {packages.data && packages.data.length === 0 ? (
        <Alert severity="info">Aucune offre n’est en vente pour le moment.</Alert>
      ) : null}
      <Box
        sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr', lg: '1fr 1fr 1fr' } }}
      >
        {packages.data?.map((pkg) => {
          const price = priceOf(pkg);
          const excluded = Boolean(preview) && !price;
          return (
            <Card
              key={pkg.id}
              variant="outlined"
              data-testid="package-card"
              sx={{ display: 'flex', flexDirection: 'column' }}
            >
              <CardContent sx={{ flexGrow: 1 }}>
                <Typography variant="h6" component="h2">
                  {pkg.name}
                </Typography>
                <Box sx={{ my: 1 }}>
                  {price && price.discountCents > 0 ? (
                    <>
                      <Typography
                        component="span"
                        sx={{ textDecoration: 'line-through', color: 'text.secondary', mr: 1 }}
                      >
                        {formatPrice(pkg.priceCents, pkg.currency)}
                      </Typography>
                      <Typography component="span" variant="h5" color="success.main">
                        {formatPrice(price.amountCents, pkg.currency)}
                      </Typography>
                    </>
                  ) : (
                    <Typography variant="h5">{formatPrice(pkg.priceCents, pkg.currency)}</Typography>
                  )}
                  <Typography variant="body2" color="text.secondary">
                    pour {pkg.durationDays} jours
                  </Typography>
                </Box>
                {pkg.description ? (
                  <Typography sx={{ mb: 1, whiteSpace: 'pre-line' }}>{pkg.description}</Typography>
                ) : null}
                <OfferFeatures grants={pkg.grants} whitelistSlots={pkg.whitelistSlots} />
                {excluded ? (
                  <Typography variant="body2" color="warning.main" sx={{ mt: 1 }}>
                    Le code promo ne s’applique pas à cette offre.
                  </Typography>
                ) : null}
              </CardContent>
              <CardActions>
                <Button
                  variant="contained"
                  fullWidth
                  disabled={buy.isPending || excluded}
                  onClick={() => {
                    if (isBuying.current) return;
                    isBuying.current = true;
                    buy.mutate(pkg, { onSettled: () => (isBuying.current = false) });
                  }}
                >
                  {price && price.amountCents === 0 ? 'Activer gratuitement' : 'Acheter'}
                </Button>
              </CardActions>
            </Card>
          );
        })}
      </Box>
    </>
  );
}
